//go:build !js

package app

import (
	"errors"
	"sync"

	"github.com/go-playground/validator/v10"

	"github.com/agent-analysis/agent-analysis/app/validation"
)

// validate is built on first use.
var validate = sync.OnceValue(func() *validator.Validate { return validation.New() })

// checkFields enforces the Wire's validate tags with validator/v10.
func checkFields(w Wire) error {
	if err := validate().Struct(w); err != nil {
		return errors.New(validation.Explain(err))
	}
	return nil
}
