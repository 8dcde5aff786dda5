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
