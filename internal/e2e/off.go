//go:build !e2e

package e2e

const enabled = false
