// Command wasm is the browser entry point, built with GOOS=js GOARCH=wasm
// into web/app.wasm.
package main

import (
	"runtime"
	"time"

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
	// In the browser every goroutine, the collector's too, runs on the
	// page's one thread, and a Go program's first collection costs far
	// more than later ones (measured in Chromium at 1,000 services: 16 ms
	// of mark and 17 ms of mark termination, where later ones took 2 ms
	// and none): it was the one task over 50 ms among a stream's deltas.
	// Collected at start (after a sleep, so that the page's own start-up
	// goes first), it is paid once, before any stream can begin.
	go func() {
		time.Sleep(time.Millisecond)
		runtime.GC()
	}()
	app.RunWhenOnBrowser()
}
