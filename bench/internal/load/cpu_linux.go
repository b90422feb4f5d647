package load

import (
	"fmt"
	"syscall"
	"time"
	"unsafe"
)

// CPU is the process's CPU time, all its threads' (those that ended
// too), user and system: its CPU clock (clock_getcpuclockid(3)), read to
// the nanosecond. (/proc/PID/stat counts in 10 ms ticks, too coarse for a
// turn of a Round.)
func (p *Process) CPU() (time.Duration, error) {
	clock := (^p.cmd.Process.Pid)<<3 | 2 // the process's CPUCLOCK_SCHED (linux/posix-timers.h)
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, fmt.Errorf("%s: its CPU clock: %w", p.Name, errno)
	}
	return time.Duration(ts.Nano()), nil
}
