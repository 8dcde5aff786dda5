package task

// Library bugs that the fault model meets go here: the library contradicts
// a sentence of its documentation. Each gets a constant that names it, a
// minimal reproduction skipped until it is fixed, and what the model does
// for it in simState.asBugs, so that the fault matrix counts the cases that
// meet one and the fuzzer skips them. When it is fixed, its reproduction
// moves to faultfound_test.go as a plain test.

// bugRefusedBareCanceled: with BlockAtLimit and Grace, a child whose
// spawner was blocked at the limit when a sibling failed now and then
// completes with a bare context.Canceled, not with the failure as its
// cause (TestBugRefusedBareCanceled).
const bugRefusedBareCanceled = "a child refused by a failure holds a bare context.Canceled (BlockAtLimit, Grace)"

// bugRoundEndRefused: a limited NewGroup whose first round's child ended
// just as Wait returned now and then refuses a child of the next round as
// not started ("the call stopped taking new work"), seen under
// -count=20 -shuffle=on -cpu=1,4 -race (TestRoundEndChildRace).
const bugRoundEndRefused = "a later round's child of a limited NewGroup refused as not started"
