package wtask

//go:generate go run gen.go
