package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The phone the startup is measured on: Chromium's own emulation of a slow
// connection and a slow CPU, at 390 px.
const (
	phoneDownBytesPerSecond = 1.6e6 / 8 // 1.6 Mbit/s
	phoneUpBytesPerSecond   = 750e3 / 8
	phoneRoundTripMs        = 150
	phoneCPUSlowdown        = 4
)

// BenchmarkPhoneStartup measures navigation to a usable Run button on that
// phone: a cold first visit (empty cache), then a warm one in the same
// browser context (the wasm from the HTTP cache, where its versioned URL
// keeps it a year). Medians of three visits of each.
func BenchmarkPhoneStartup(b *testing.B) {
	for b.Loop() {
		var cold, warm []float64
		for range 3 {
			c, w := sampleStartup(b)
			cold, warm = append(cold, c), append(warm, w)
		}
		b.ReportMetric(median(cold), "ms-cold-to-run")
		b.ReportMetric(median(warm), "ms-warm-to-run")
	}
}

func sampleStartup(b *testing.B) (coldMs, warmMs float64) {
	p := newBarePage(b, viewports[1])
	p.onNewDocument(timingProbe)
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return fmt.Errorf("Network.enable: %w", err)
		}
		// By hand: Chromium 148 wants offline beside the rules, which this
		// cdproto's params do not carry.
		conditions := map[string]any{
			"offline": false,
			"matchedNetworkConditions": []map[string]any{{
				"urlPattern": "", "latency": phoneRoundTripMs,
				"downloadThroughput": phoneDownBytesPerSecond, "uploadThroughput": phoneUpBytesPerSecond,
			}},
		}
		if err := t.Call(ctx, "Network.emulateNetworkConditionsByRule", conditions, nil); err != nil {
			return fmt.Errorf("Network.emulateNetworkConditionsByRule: %w", err)
		}
		if _, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: phoneCPUSlowdown}); err != nil {
			return fmt.Errorf("Emulation.setCPUThrottlingRate: %w", err)
		}
		return nil
	}))
	visit := func() (usable, wasmLoaded, bytes float64) {
		p.do(chromedp.Navigate(baseURL + "/agent-analysis"))
		p.waitFor("a usable Run button", `window.__interactive !== undefined`, 2*time.Minute)
		usable = eval[float64](p, `window.__interactive`)
		// Where the time went: the wasm's last byte, and what all resources
		// took on the wire (the document included).
		wasmLoaded = eval[float64](p, `performance.getEntriesByType('resource').find(e => e.name.endsWith('.wasm'))?.responseEnd ?? 0`)
		bytes = eval[float64](p, `[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].reduce((n, e) => n + e.transferSize, 0)`)
		return usable, wasmLoaded, bytes
	}
	coldMs, coldWasm, coldBytes := visit()
	warmMs, warmWasm, warmBytes := visit()
	b.Logf("phone: cold %.0f ms (wasm loaded at %.0f ms, %.0f bytes on the wire), warm %.0f ms (%.0f ms, %.0f bytes) to a usable Run",
		coldMs, coldWasm, coldBytes, warmMs, warmWasm, warmBytes)
	return coldMs, warmMs
}
