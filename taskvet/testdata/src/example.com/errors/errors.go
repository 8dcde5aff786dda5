package errors

func New(s string) error { return nil }

func As(err error, target any) bool { return false }
