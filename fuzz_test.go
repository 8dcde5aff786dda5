//go:build go1.25

package task

import (
	"slices"
	"testing"
)

// FuzzOutcomes draws a scene (see faultmodel_test.go) and compares the
// call with the model.
//
// The data has three formats, told apart by data[1] and data[0]. The
// first, data[1] < 0xC0, is the one of the seeds stored before the second
// existed, which keep their meaning: n, op (data[1] % 8: the first eight
// ops), [k, for Scope and MapSeq,] one kind per position drawn from
// faultKinds, then the order. The second, data[1] ≥ 0xC0 and data[0] <
// 0x80: n, op ((data[1] - 0xC0) % 17: the ops up to Until), how (bit 0:
// Grace; bits 1 to 3: the wait form), stop (0: the test cancels the
// caller's ctx, or ends MapWithin's budget, only if the call has not ended
// after every release; else after (stop - 1) % (n + 1) releases), k, one
// kind per position drawn from matrixKinds, then the order. The third,
// data[1] ≥ 0xC0 and data[0] ≥ 0x80, is the second with every op
// ((data[1] - 0xC0) % numOps) and a byte of options after how: bit 0
// KeepGoing, 1 Settled, 2 BlockAtLimit, 3 StartAll (each where the call
// takes it, see scene.opt; StartAll not with KeepGoing), bits 4 to 6 the
// first round of a group when the scene is a later one ((bits % 5): none,
// or what its child does, see priorRound).
//
// Every scene of a call that takes FirstError runs twice: as drawn, then
// with FirstError (see scene.firstError), which changes what the call
// returns and must change nothing else.
func FuzzOutcomes(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0})
	f.Add([]byte{3, 1, 1, 2, 3, 2, 1, 0})
	f.Add([]byte{16, 1, 7, 7, 1, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 5, 4, 3, 2, 1})
	f.Add([]byte{4, 2, 2, 4, 5, 6, 0, 1, 2, 3})
	f.Add([]byte{5, 3, 1, 1, 0, 6, 7})
	// The second format: n-1, 0xC0+op, how, stop, k, kinds (indexes in
	// matrixKinds: 7 waitCtx, 8 to 10 uncomparable errors, 11 waitStop),
	// order.
	f.Add([]byte{3, 0xC0 + byte(opRun), 1, 2, 0, 11, 7, 0, 1})        // a stop after one release, with Grace
	f.Add([]byte{3, 0xC0 + byte(opDo), 0, 1, 0, 0, 7, 8, 0})          // Do stopped before any release
	f.Add([]byte{4, 0xC0 + byte(opMap), 1, 3, 0, 11, 0, 7, 0, 10})    // Map, Grace
	f.Add([]byte{4, 0xC0 + byte(opForEach), 1, 2, 0, 11, 0, 7, 0, 0}) // ForEach, Grace, inputs left
	f.Add([]byte{4, 0xC0 + byte(opForEach), 0, 0, 0, 0, 8, 0, 0, 0, 3, 2, 1})
	f.Add([]byte{4, 0xC0 + byte(opMapSeqUnordered), 1, 3, 0, 7, 11, 0, 1, 0})
	f.Add([]byte{5, 0xC0 + byte(opGo), 2, 0, 6, 0, 9, 2, 0, 1, 0})        // Spawn, Go, TryGo; the body waits by All
	f.Add([]byte{5, 0xC0 + byte(opGoLimit), 0, 0, 4, 0, 0, 0, 0, 5, 0})   // a Goexit at the limit
	f.Add([]byte{5, 0xC0 + byte(opScopeTree), 8, 0, 3, 0, 0, 1, 0, 0, 0}) // child 0 waits by AwaitN
	// For FirstError: inputs[2] fails before inputs[0] (it takes the slot
	// inputs[1] frees); child 2 takes the slot child 1 frees as child 0,
	// its wait over, fails: the two race; the body's All is stopped by ctx,
	// and is the first stopped in argument order.
	f.Add([]byte{2, 0xC0 + byte(opForEach), 0, 0, 0, 8, 0, 1, 0, 1})
	f.Add([]byte{2, 0xC0 + byte(opScopeTree), 0, 0, 1, 1, 0, 1, 1, 1})
	f.Add([]byte{2, 0xC0 + byte(opScope), 2, 1, 2, 7, 7, 0})
	// The completion policies: MapWithin's budget ends after one release,
	// with Grace, a failure in the grace period; Quorum 2 of 4 lost by two
	// failures, a position waiting; Until 2 of 4, one panics after.
	f.Add([]byte{3, 0xC0 + byte(opMapWithin), 1, 2, 0, 8, 7, 0, 1, 2, 0})
	f.Add([]byte{3, 0xC0 + byte(opQuorum), 0, 0, 2, 1, 7, 1, 0, 0, 2, 1, 3})
	f.Add([]byte{3, 0xC0 + byte(opUntil), 0, 3, 2, 0, 7, 0, 2, 0, 2, 1, 3})
	// The third format: 0x80+n-1, 0xC0+op, how, options, stop, k, kinds,
	// order. Map with KeepGoing and Settled stopped halfway, a position
	// waiting; a limited Scope whose child 0 spawns the others blocking at
	// the limit, a failure refusing them; StartAll starting them after it;
	// a NewGroup at its limit after a round that failed, stopped with
	// Grace; the zero Group after a round that panicked, two failures.
	f.Add([]byte{0x83, 0xC0 + byte(opMap), 0, 0x03, 3, 0, 7, 1, 0, 0, 1, 0, 2})
	f.Add([]byte{0x84, 0xC0 + byte(opScopeLimit), 0, 0x04, 0, 2, 0, 1, 0, 0, 0, 1, 2, 0})
	f.Add([]byte{0x84, 0xC0 + byte(opGoLimit), 0, 0x0C, 0, 2, 0, 1, 7, 0, 0, 1, 2, 0})
	f.Add([]byte{0x83, 0xC0 + byte(opNewGroupLimit), 1, 0x24, 2, 0, 11, 0, 7, 0})
	f.Add([]byte{0x83, 0xC0 + byte(opZeroGroup), 0, 0x30, 0, 0, 0, 1, 0, 1, 2, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, ok := decodeScene(data)
		if !ok {
			return
		}
		var bugs []string
		for _, first := range []bool{false, true} {
			if first && !s.op.firstError() {
				break // the call is the same: it does not take FirstError (the zero Group has it already)
			}
			s.firstError = first
			bugs = append(bugs, runScenario(t, s)...)
		}
		if bugs != nil {
			t.Skipf("%v meets known library bugs: %v", s, bugs)
		}
	})
}

// firstFormat is the first value of data[1] in the second and third
// formats, thirdFormat the first of data[0] in the third.
const (
	firstFormat = 0xC0
	thirdFormat = 0x80
)

// secondFormatOps is how many ops the second format draws from: the ops
// there were when it was the newest, so that its seeds keep their meaning.
const secondFormatOps = int(opUntil) + 1

// decodeScene reads a scene from the fuzzer's data.
func decodeScene(data []byte) (scene, bool) {
	if len(data) < 2 {
		return scene{}, false
	}
	n := int(data[0])%16 + 1
	s := scene{stopAt: noStop}
	kinds := faultKinds
	if data[1] < firstFormat {
		s.op = op(int(data[1]) % 8)
		data = data[2:]
		if s.op >= opScope && len(data) > 0 {
			s.k = int(data[0]) % (n + 1)
			data = data[1:]
		}
	} else {
		third := data[0] >= thirdFormat
		s.op = op(int(data[1]-firstFormat) % secondFormatOps)
		if third {
			s.op = op(int(data[1]-firstFormat) % int(numOps))
		}
		data = data[2:]
		var how, opts, stop byte
		fields := []*byte{&how, &stop}
		if third {
			fields = []*byte{&how, &opts, &stop}
		}
		for _, b := range fields {
			if len(data) > 0 {
				*b, data = data[0], data[1:]
			}
		}
		s.grace = how&1 == 1 && s.op.graceful()
		s.wait = waitForm(int(how>>1&7) % int(numWaits))
		s.keepGoing = opts&1 != 0
		s.settled = opts&2 != 0
		s.blockAtLimit = opts&4 != 0
		s.startAll = opts&8 != 0 && !s.keepGoing
		if s.op.group() {
			s.prior = priorRound(int(opts>>4&7) % int(numPriors))
		}
		if stop > 0 && s.op.runs() && s.op != opZeroGroup {
			s.stopAt = (int(stop) - 1) % (n + 1)
		} else {
			s.grace = false // Grace without a stop is a call like another
		}
		if len(data) > 0 {
			s.k = int(data[0]) % (n + 1)
			data = data[1:]
		}
		kinds = matrixKinds
	}
	if (s.op == opRun || s.op == opAwait) && n == 1 {
		n = 2
	}
	s.kinds = make([]kind, n)
	for i := range s.kinds {
		if i < len(data) {
			s.kinds[i] = kinds[int(data[i])%len(kinds)]
		}
	}
	if len(data) > n {
		data = data[n:]
	} else {
		data = nil
	}
	// The order: a permutation drawn from the rest of the data.
	s.order = make([]int, n)
	for i := range s.order {
		s.order[i] = i
	}
	for i := n - 1; i > 0 && len(data) > 0; i-- {
		j := int(data[0]) % (i + 1)
		data = data[1:]
		s.order[i], s.order[j] = s.order[j], s.order[i]
	}
	// AwaitN and All return at once when their ctx is done, leaving a
	// panicked task unobserved, which crashes the program when the task
	// is collected (by design). Keep that out of the fuzzer's process:
	// there, a position waiting for cancellation becomes a slow one.
	// The zero Group's children get a ctx that only Wait cancels, once
	// every child has returned: one that waits for cancellation waits
	// forever, as with errgroup's zero Group. There too, it becomes a slow
	// one.
	if !s.op.runs() && slices.ContainsFunc(s.kinds, isPanic) || s.op == opZeroGroup {
		for i, k := range s.kinds {
			if isWaiting(k) {
				s.kinds[i] = kSlow
			}
		}
	}
	return s, true
}
