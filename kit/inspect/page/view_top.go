package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/internal/theme"
)

// topBar is the header: what the page is, the live feed's state, Open
// file, and the theme switch.
type topBar struct {
	app.Compo
	Live  Link
	Ready bool
	send  func(Msg)
}

func (b *topBar) Render() app.UI {
	live := map[Link]string{Connecting: "Live: connecting…", Connected: "Live: connected", Lost: "Live: lost, reconnecting…"}[b.Live]
	if !b.Ready {
		live = "Loading…"
	}
	open := app.Button().Type("button").Class("primary").OnClick(b.pick).Text("Open file")
	if !b.Ready {
		open = open.Disabled(true)
	}
	return app.Header().Class("top").Body(
		app.P().Class("brand").Body(
			app.Strong().Text("Agent Analysis"),
			app.Span().Class("badge").Text("Inspector"),
		),
		app.P().Class("live", liveClass(b.Live)).Text(live),
		app.Div().Class("group").Body(
			open,
			app.Input().Type("file").ID("open-file").Class("visually-hidden").Multiple(true).
				TabIndex(-1).Aria("hidden", true).OnChange(b.picked),
			&theme.Switch{},
		),
	)
}

func liveClass(l Link) string {
	return map[Link]string{Connecting: "connecting", Connected: "connected", Lost: "lost"}[l]
}

// pick opens the browser's file chooser.
func (b *topBar) pick(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	app.Window().GetElementByID("open-file").Call("click")
}

func (b *topBar) picked(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	files := filesOf(input.Get("files"))
	input.Set("value", "") // the same file can be picked again
	if len(files) > 0 {
		b.send(ChoseFiles{Files: files})
	}
}
