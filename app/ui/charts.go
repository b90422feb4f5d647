package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// charts is the index of chart demos. Navigating here from the demo
// dismounts it, which cancels an open run.
type charts struct{ app.Compo }

func (c *charts) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Charts · Agent Analysis")
}

func (c *charts) Render() app.UI {
	return shell(chartsPath,
		app.H1().Text("Charts"),
		app.Ul().Class("chart-list").Body(
			app.Li().Class("card").Body(
				app.H2().Body(app.A().Href(livePath).Text("Agent Analysis: AG-UI state sync")),
				app.P().Text("A scatter chart of service latency fed by an AG-UI event stream: "+
					"snapshots, JSON Patch deltas applied atomically, rejected updates, recovery and cancellation."),
			),
		),
	)
}
