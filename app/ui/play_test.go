//go:build !wasm

package ui

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/core/coretest"
)

// play runs a script through Update as the runtime would and returns the
// model after Run and after each event delivered, in order.
func play(t *testing.T, name string) []core.Model {
	t.Helper()
	models, err := coretest.Play(core.NewModel("thread-1"), name)
	if err != nil {
		t.Fatal(err)
	}
	return models
}
