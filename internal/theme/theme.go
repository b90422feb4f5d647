// Package theme is the light and dark switch of both pages, the demo's and
// the inspector's. Until it is pressed a page follows the system's
// prefers-color-scheme; a choice is kept in localStorage under one key, so
// it holds on both pages.
package theme

import "github.com/maxence-charriere/go-app/v10/pkg/app"

const key = "agent-analysis/theme"

// Switch is the "Dark theme" toggle button.
type Switch struct {
	app.Compo
	dark bool
}

func (s *Switch) OnMount(ctx app.Context) {
	var theme string
	ctx.LocalStorage().Get(key, &theme)
	switch theme {
	case "dark", "light":
		s.dark = theme == "dark"
		apply(theme)
	default:
		s.dark = app.Window().Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Bool()
	}
}

func (s *Switch) Render() app.UI {
	return app.Button().Type("button").Class("theme").
		Aria("pressed", s.dark).
		OnClick(s.toggle).
		Text("Dark theme")
}

func (s *Switch) toggle(ctx app.Context, e app.Event) {
	s.dark = !s.dark
	theme := "light"
	if s.dark {
		theme = "dark"
	}
	apply(theme)
	ctx.LocalStorage().Set(key, theme)
}

// apply pins the theme on <html>; the stylesheets read data-theme.
func apply(theme string) {
	app.Window().Get("document").Get("documentElement").Call("setAttribute", "data-theme", theme)
}
