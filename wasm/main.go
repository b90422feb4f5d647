// Command wasm is the browser entry point, built with GOOS=js GOARCH=wasm
// into web/app.wasm.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/ui"
)

func main() {
	// The server hands the page its scenarios: the wasm carries no scripts.
	scenarios, err := catalogue.Decode(app.Getenv(ui.ScenariosEnv))
	if err != nil {
		app.Log(err) // an empty select, and the console says why
	}
	ui.Register(scenarios)
	app.RunWhenOnBrowser()
}
