package api

import (
	"errors"
	"fmt"

	"github.com/lotbook/lotbook/commands/rules/secret"
)

// sealerFor builds the sealer of personal data from Config.SecretKey. Without a key only a demo
// starts: it seals with secret.DevKey, which is public, and says so in the log.
func sealerFor(cfg Config) (*secret.Sealer, error) {
	key := cfg.SecretKey
	if len(key) == 0 {
		if !cfg.Demo {
			return nil, errors.New("api: LOTBOOK_SECRET_KEY is required (32 bytes as 64 hex digits or base64): it encrypts ID and card numbers")
		}
		cfg.Logger.Warn("LOTBOOK_SECRET_KEY is not set: ID and card numbers are sealed with the public development key (demo only, protects nothing)")
		key = secret.DevKey()
	}
	s, err := secret.NewSealer(key)
	if err != nil {
		return nil, fmt.Errorf("api: LOTBOOK_SECRET_KEY: %w", err)
	}
	return s, nil
}
