package task

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
)

// Format prints p in one line for %v and %s, as a recover middleware or a
// log line wants it: where the panic happened, its value, the frame that
// panicked, and how many other failures the call had, as in
//
//	task: Run2: f1: panic: boom [at handler.go:42] (and 1 other failure)
//
// %+v prints [PanicError.Error]: the whole stack and the other failures,
// one per line. %q quotes the one line. The runtime prints Error when a
// panic is not recovered, so a crash keeps the stack.
func (p *PanicError) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('+'):
		io.WriteString(f, p.Error())
	case verb == 'v' || verb == 's':
		io.WriteString(f, p.oneLine())
	case verb == 'q':
		io.WriteString(f, strconv.Quote(p.oneLine()))
	default:
		fmt.Fprintf(f, "%%!%c(*task.PanicError=%s)", verb, p.oneLine())
	}
}

// oneLine is the one-line form of Format.
func (p *PanicError) oneLine() string {
	s := p.where() + "panic: " + fmt.Sprint(p.Value)
	if src := firstFrame(p.Stack); src != nil {
		s += " [at " + filepath.Base(src.File) + ":" + strconv.Itoa(src.Line) + "]"
	}
	if p.Others != nil {
		if n := len(p.Others.Failures); n == 1 {
			s += " (and 1 other failure)"
		} else if n > 1 {
			s += " (and " + strconv.Itoa(n) + " other failures)"
		}
	}
	return s
}
