//go:build !unix

package server_test

import "testing"

// raiseFileLimit: only Unix has a limit to raise; elsewhere the tests that
// hold many connections run as they are.
func raiseFileLimit(tb testing.TB, need int) {}
