package web

// SetMaxPageBytes sets the bound of the rendered pages kept, for a test,
// and returns a function that restores it.
func SetMaxPageBytes(n int) (restore func()) {
	old := maxPageBytes
	maxPageBytes = n
	return func() { maxPageBytes = old }
}
