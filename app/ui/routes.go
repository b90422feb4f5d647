// Package ui is the go-app shell of the demo: components that render the
// client core's Model and dispatch its Msgs, and the routes they live on.
package ui

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var registerOnce sync.Once

// Register declares the routes. The wasm entry point and the server both
// call it: go-app prerenders only routes it knows. The two demo routes make
// components of one type, so moving between them keeps the mounted one,
// with its stream.
func Register() {
	registerOnce.Do(func() {
		app.Route(LivePath, newDemo)
		app.Route(RetainedPath, newDemo)
		app.Route(ChartsPath, func() app.Composer { return &Charts{} })
	})
}
