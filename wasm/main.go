// Command wasm is the browser entry point, built with GOOS=js GOARCH=wasm
// into web/app.wasm.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/ui"
)

func main() {
	ui.Register()
	app.RunWhenOnBrowser()
}
