// Package ui is the go-app shell of the demo: components that render the
// client core's Model and dispatch its Msgs, and the routes they live on.
package ui

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
)

var registerOnce sync.Once

// Register declares the routes, with the scenarios the demo offers. The
// wasm entry point and the server both call it: go-app prerenders only
// routes it knows. The two demo routes make components of one type, so
// moving between them keeps the mounted one, with its stream.
func Register(scenarios catalogue.Catalogue) {
	registerOnce.Do(func() {
		app.Route(livePath, newDemo(scenarios))
		app.Route(retainedPath, newDemo(scenarios))
		app.Route(chartsPath, func() app.Composer { return &charts{} })
	})
}

// ScenariosEnv is the go-app environment variable by which the server
// hands the page its scenario catalogue.
const ScenariosEnv = "AGENT_ANALYSIS_SCENARIOS"
