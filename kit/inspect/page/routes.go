// Package page is the inspector's page: every run a proxy passes, or
// a file holds, judged, with its events, conversation and state.
package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// Register routes the inspector's page; the server, the wasm's main and
// the tests call it.
func Register() {
	app.Route("/", func() app.Composer { return &page{} })
}

type page struct {
	app.Compo
	runs []runs.Run
}

func (p *page) Render() app.UI { return app.Main().Text(len(p.runs)) }
