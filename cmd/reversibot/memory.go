package main

import (
	"context"
	"log/slog"

	"github.com/reversibot/reversi/storage"
)

// warnMemoryRisks tells the operator, at start-up, what the Redis server's memory limit and
// eviction policy put at risk (see the README: maxmemory with maxmemory-policy noeviction).
func warnMemoryRisks(ctx context.Context, store *storage.Store, log *slog.Logger) {
	risks, err := store.MemoryRisks(ctx)
	if err != nil {
		log.Warn("could not read Redis's memory limit and eviction policy", "err", err)
	}
	for _, r := range risks {
		log.Warn("Redis's memory settings put the bot's data at risk", "risk", r)
	}
}
