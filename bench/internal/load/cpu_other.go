//go:build !linux

package load

import (
	"errors"
	"time"
)

// CPU is the process's CPU time: read on Linux only (cpu_linux.go), as
// its peak memory is.
func (p *Process) CPU() (time.Duration, error) {
	return 0, errors.New("reading another process's CPU time needs Linux")
}
