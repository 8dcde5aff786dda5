package errgroupimport

import "fmt"

// newReceiver builds the struct without naming the group's field.
func newReceiver(host string, port int) *receiver {
	return &receiver{addr: fmt.Sprintf("%s:%d", host, port)} // want `task.Group in place`
}
