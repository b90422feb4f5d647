//go:build js

package app

// checkFields enforces the Wire's validate tags by hand in the browser.
func checkFields(w Wire) error { return checkByHand(w) }
