package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Charts is the index of chart demos. Navigating here from the demo
// dismounts it, which cancels an open run.
type Charts struct{ app.Compo }

func (c *Charts) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Charts · Agent Analysis")
}

func (c *Charts) Render() app.UI {
	return shell(ChartsPath,
		app.H1().Text("Charts"),
		app.Ul().Class("chart-list").Body(
			app.Li().Class("card").Body(
				app.H2().Body(app.A().Href(LivePath).Text("Agent Analysis: AG-UI state sync")),
				app.P().Text("A scatter chart of service latency fed by an AG-UI event stream: "+
					"snapshots, JSON Patch deltas applied atomically, rejected updates, recovery and cancellation."),
			),
		),
	)
}
