module github.com/tasktuple/task/tracetest

go 1.26.0

require github.com/tasktuple/task v0.0.0

require golang.org/x/exp v0.0.0-20261113113407-e3970619a1a4

replace github.com/tasktuple/task => ../
