//go:build go1.25

package task

import (
	"slices"
	"testing"
)

// FuzzOutcomes draws a scene (see faultmodel_test.go) and compares the
// call with the model.
//
// The data has two formats, told apart by data[1]. The first, data[1] <
// 0xC0, is the one of the seeds stored before the second existed, which
// keep their meaning: n, op (data[1] % 8: the first eight ops), [k, for
// Scope and MapSeq,] one kind per position drawn from faultKinds, then
// the order. The second, data[1] ≥ 0xC0: n, op ((data[1] - 0xC0) % numOps:
// every op), how (bit 0: Grace; bits 1 to 3: the wait form), stop (0: the
// test cancels the caller's ctx, or ends MapWithin's budget, only if the
// call has not ended after every release; else after (stop - 1) % (n + 1)
// releases), k, one kind per
// position drawn from matrixKinds, then the order.
//
// Every scene runs twice: as drawn, then with FirstError (see
// scene.firstError), which changes what the calls that take it return and
// must change nothing else, nor anything of the calls that do not.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		s, ok := decodeScene(data)
		if !ok {
			return
		}
		var bugs []string
		for _, first := range []bool{false, true} {
			if first && s.op == opDo {
				break // Do takes no options
			}
			s.firstError = first
			bugs = append(bugs, runScenario(t, s)...)
		}
		if bugs != nil {
			t.Skipf("%v meets known library bugs: %v", s, bugs)
		}
	})
}

// firstFormat is the first value of data[1] in the second format.
const firstFormat = 0xC0

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
		s.op = op(int(data[1]-firstFormat) % int(numOps))
		data = data[2:]
		var how, stop byte
		for _, b := range []*byte{&how, &stop} {
			if len(data) > 0 {
				*b, data = data[0], data[1:]
			}
		}
		s.grace = how&1 == 1 && s.op.graceful()
		s.wait = waitForm(int(how>>1&7) % int(numWaits))
		if stop > 0 && s.op.runs() {
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
	if !s.op.runs() && slices.ContainsFunc(s.kinds, isPanic) {
		for i, k := range s.kinds {
			if isWaiting(k) {
				s.kinds[i] = kSlow
			}
		}
	}
	return s, true
}
