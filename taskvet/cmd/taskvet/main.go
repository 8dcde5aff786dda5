// Command taskvet reports misuse of github.com/tasktuple/task and offers to
// migrate fixed errgroup fan-outs to task.RunN.
//
// Standalone:
//
//	taskvet ./...
//	taskvet -fix ./...          # apply the errgroup migrations
//	taskvet -errgroupfix=false ./...
//
// Under go vet:
//
//	go vet -vettool=$(which taskvet) ./...
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/tasktuple/task/taskvet"
)

func main() { multichecker.Main(taskvet.Analyzers...) }
