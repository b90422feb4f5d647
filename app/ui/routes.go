// Package ui is the go-app shell of the demo: components that render the
// client core's Model and dispatch its Msgs, and the routes they live on.
package ui

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var registerOnce sync.Once

// Register declares the routes. The wasm entry point and the server both
// call it: go-app prerenders only routes it knows.
func Register() {
	registerOnce.Do(func() {
		app.Route("/agent-analysis", func() app.Composer { return &Demo{} })
	})
}

// Demo is a placeholder until the live screen lands.
type Demo struct{ app.Compo }

func (d *Demo) Render() app.UI {
	return app.Main().Body(app.H1().Text("Agent Analysis"))
}
