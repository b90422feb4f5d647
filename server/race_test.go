//go:build race

package server_test

// underRace is whether the race detector is on: it drops some of what
// sync.Pool is given, on purpose, so allocations are not counted under it.
const underRace = true
