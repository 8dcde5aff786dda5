// Package shutdown is the example service of the guide "Shutting down"
// (docs/shutdown.md): an HTTP server whose handlers do work of a known
// duration, and a job queue that a pool of workers processes, written twice:
//
//   - cmd/taskservice runs them in a [task.Scope] with [task.Grace]: on
//     SIGTERM it stops taking new work, lets the requests and jobs in flight
//     finish within the grace period, and cuts only what is still running
//     when it ends;
//   - cmd/egservice is the same service as it is written today, with
//     [errgroup.WithContext] under [os/signal.NotifyContext]: on SIGTERM
//     everything is canceled at once.
//
// This package holds what the two share, so that they differ only in how
// they run and stop: the handlers ([Service.Handler]), the work of a job
// ([Service.Process]), the queue ([Queue]) and the journal of what happened
// to each request and job ([Journal]), which the test reads to check that
// everything accepted before the signal completed or was reported.
//
// [task.Scope]: https://pkg.go.dev/github.com/tasktuple/task#Scope
// [task.Grace]: https://pkg.go.dev/github.com/tasktuple/task#Grace
// [errgroup.WithContext]: https://pkg.go.dev/golang.org/x/sync/errgroup#WithContext
package shutdown
