//go:build !race && linux && amd64

package supervise

// raceBuild: see spawn_race.go.
const raceBuild = false
