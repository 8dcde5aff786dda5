package shutdown

import (
	"sync"
	"time"
)

// A Job is a unit of background work: it takes D.
type Job struct {
	ID string
	D  time.Duration
}

// A Queue holds the jobs accepted and not yet taken by a worker, in the
// order they came. Its methods may be called from any goroutine.
type Queue struct {
	mu     sync.Mutex // serializes Submit and Close
	closed bool       // guarded by mu: Submit refuses jobs
	c      chan Job
}

// NewQueue returns an empty queue that holds at most n jobs.
func NewQueue(n int) *Queue { return &Queue{c: make(chan Job, n)} }

// Submit adds j to the queue. It reports false, adding nothing, if the
// queue is full or closed.
func (q *Queue) Submit(j Job) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	select {
	case q.c <- j:
		return true
	default:
		return false
	}
}

// Jobs returns the channel the workers take jobs from.
func (q *Queue) Jobs() <-chan Job { return q.c }

// Close makes Submit refuse jobs from now on, and returns the jobs that no
// worker has taken, removing them from the queue. Every job submitted is
// thus either taken from Jobs or returned by a Close, once.
func (q *Queue) Close() []Job {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	var left []Job
	for {
		select {
		case j := <-q.c:
			left = append(left, j)
		default:
			return left
		}
	}
}
