package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

const themeKey = "agent-analysis/theme"

// themeSwitch toggles light and dark. Until pressed the page follows
// prefers-color-scheme; a choice is kept in localStorage.
type themeSwitch struct {
	app.Compo
	dark bool
}

func (t *themeSwitch) OnMount(ctx app.Context) {
	var theme string
	ctx.LocalStorage().Get(themeKey, &theme)
	switch theme {
	case "dark", "light":
		t.dark = theme == "dark"
		applyTheme(theme)
	default:
		t.dark = app.Window().Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Bool()
	}
}

func (t *themeSwitch) Render() app.UI {
	return app.Button().Type("button").Class("theme").
		Aria("pressed", t.dark).
		OnClick(t.toggle).
		Text("Dark theme")
}

func (t *themeSwitch) toggle(ctx app.Context, e app.Event) {
	t.dark = !t.dark
	theme := "light"
	if t.dark {
		theme = "dark"
	}
	applyTheme(theme)
	ctx.LocalStorage().Set(themeKey, theme)
}

// applyTheme pins the theme on <html>; the stylesheet reads data-theme.
func applyTheme(theme string) {
	app.Window().Get("document").Get("documentElement").Call("setAttribute", "data-theme", theme)
}
