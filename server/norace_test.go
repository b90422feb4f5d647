//go:build !race

package server_test

// underRace is whether the race detector is on (race_test.go).
const underRace = false
