// Package page is the inspector's page: every run a proxy passes, or
// a file holds, judged, with its events, conversation and state.
//
// It has the Elm shape the demo has: Update (update.go) is pure and
// holds every rule; the runtime (runtime.go) performs its Cmds with the
// browser's fetch, EventSource and clipboard; the components (view_*.go)
// render the Model and send Msgs. It reads the runs' JSON (package runs)
// and nothing else of the module, so that its wasm stays small.
package page

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var registerOnce sync.Once

// Register routes the inspector's page; the server, the wasm's main and
// the tests call it.
func Register() {
	registerOnce.Do(func() {
		app.Route("/", func() app.Composer { return &page{model: NewModel()} })
	})
}
