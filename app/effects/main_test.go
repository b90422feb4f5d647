package effects_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Every stream goroutine ends when its run ends.
func TestMain(m *testing.M) {
	// The js runtime parks one goroutine per pending JS event.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent"))
}
