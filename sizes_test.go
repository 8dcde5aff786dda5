package task

import (
	"testing"
	"unsafe"
)

// TestRunStateSize: the state of Run2 over two words, its one allocation,
// stays in the 224-byte size class, and a child of a Scope over a word in
// the 160-byte one: the bytes a call costs do not grow unseen. (Smaller on
// 32-bit platforms.)
func TestRunStateSize(t *testing.T) {
	if n := unsafe.Sizeof(run2[int, int]{}); n > 224 {
		t.Errorf("run2[int, int] is %d bytes; want at most 224", n)
	}
	if n := unsafe.Sizeof(childTask[int]{}); n > 160 {
		t.Errorf("childTask[int] is %d bytes; want at most 160", n)
	}
}

// TestGroupLayout: a Group stays in the 416-byte size class, and the
// fields that every spawn (spawned) and every child's end (returned, done)
// write are each at least 64 bytes (a cache line) from each other and from
// the fields every spawn and child reads (up to groupWait), whatever the
// object's alignment, so that a spawn and a child's end on two cores do
// not pass lines back and forth. What lies in the gaps must be written
// only off the success path.
func TestGroupLayout(t *testing.T) {
	var g Group
	if n := unsafe.Sizeof(g); n > 416 {
		t.Errorf("Group is %d bytes; want at most 416", n)
	}
	readEnd := unsafe.Offsetof(g.groupWait)
	returned, doneEnd := unsafe.Offsetof(g.returned), unsafe.Offsetof(g.done)+unsafe.Sizeof(g.done)
	spawned := unsafe.Offsetof(g.spawned)
	if returned < readEnd+64 {
		t.Errorf("returned at %d is within 64 bytes of the fields read by every child (up to %d)", returned, readEnd)
	}
	if spawned < doneEnd+64 {
		t.Errorf("spawned at %d is within 64 bytes of returned and done (up to %d)", spawned, doneEnd)
	}
}
