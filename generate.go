package task

//go:generate go run gen.go
