// Command inspector is the inspector page's browser entry point, built
// with GOOS=js GOARCH=wasm into web/inspector.wasm.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/page"
)

func main() {
	page.Register()
	app.RunWhenOnBrowser()
}
