package page

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

const themeKey = "agent-analysis/theme"

// topBar is the header: what the page is, the live feed's state, Open
// file, and the theme switch.
type topBar struct {
	app.Compo
	Live  Link
	Ready bool
	send  func(Msg)
	dark  bool
}

func (b *topBar) OnMount(ctx app.Context) {
	var theme string
	ctx.LocalStorage().Get(themeKey, &theme)
	switch theme {
	case "dark", "light":
		b.dark = theme == "dark"
		applyTheme(theme)
	default:
		b.dark = app.Window().Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Bool()
	}
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
			app.Button().Type("button").Class("theme").Aria("pressed", b.dark).OnClick(b.toggle).Text("Dark theme"),
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

func (b *topBar) toggle(ctx app.Context, e app.Event) {
	b.dark = !b.dark
	theme := "light"
	if b.dark {
		theme = "dark"
	}
	applyTheme(theme)
	ctx.LocalStorage().Set(themeKey, theme)
}

// applyTheme pins the theme on <html>; the stylesheets read data-theme.
func applyTheme(theme string) {
	app.Window().Get("document").Get("documentElement").Call("setAttribute", "data-theme", theme)
}
