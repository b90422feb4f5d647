//go:build !wasm

package ui

import "github.com/agent-analysis/agent-analysis/fixtures/fixturetest"

// play runs a script through Update as the runtime would and returns the
// model after Run and after each event delivered, in order.
var play = fixturetest.MustPlay
