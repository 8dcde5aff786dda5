module github.com/tasktuple/task

go 1.24
