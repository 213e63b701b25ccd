package main

import (
	"fmt"
	"strings"
)

// minTokenSecret is the shortest part after the colon that tokenProblem accepts; BotFather's
// tokens have 35 characters there.
const minTokenSecret = 20

// tokenProblem says what keeps token from being a bot token (the bot's id in digits, a
// colon, then at least minTokenSecret letters, digits, _ or -), or "" when it is one. It names
// lengths and positions only, never a character of the token, so the answer is safe to log.
func tokenProblem(token string) string {
	id, secret, found := strings.Cut(token, ":")
	switch {
	case !found:
		return "it has no colon: a bot token is the bot's id in digits, a colon, then the secret part BotFather gave"
	case id == "":
		return "nothing stands before the colon, where the bot's id in digits belongs"
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return fmt.Sprintf("character %d of the bot's id (before the colon) is not a digit", i+1)
		}
	}
	for i := 0; i < len(secret); i++ {
		c := secret[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Sprintf("character %d after the colon is not a letter, a digit, _ or - (a second colon, a space or a quote pasted with it?)", i+1)
		}
	}
	if len(secret) < minTokenSecret {
		return fmt.Sprintf("the part after the colon is %d characters long, where a bot token has at least %d (BotFather's have 35): was it cut short?", len(secret), minTokenSecret)
	}
	return ""
}
