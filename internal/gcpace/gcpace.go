// Package gcpace sets the garbage collector's pace of agent-analysis
// serve, and of the floor bench/ measures it against (net/http alone), so
// that both run alike.
package gcpace

import "runtime/debug"

// Percent is the collector's pace (GOGC) unless the environment sets one:
// a stream leaves about 3 KiB of garbage against a live heap of a
// megabyte or two, so the collector waits for its least heap, 4 MB times
// GOGC/100, and at Go's default of 100 runs every 800 streams or so. At
// 400 it waits for 16 MB, about every 4,000; the guide's server section
// has what each costs.
const Percent = 400

// Set sets the collector's pace, unless GOGC (read with getenv) does.
func Set(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
