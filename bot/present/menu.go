package present

import (
	"strconv"

	"github.com/go-telegram/bot/models"

	"github.com/reversibot/reversi/bot/callback"
	"github.com/reversibot/reversi/bot/i18n"
	"github.com/reversibot/reversi/game"
)

// Menu is a menu the bot draws, or an entry of its main menu that leads elsewhere. A button
// that opens a menu or follows an entry with callback.ActionMenu carries the Menu as its Arg,
// so the values from MenuMain to MenuStyleImage are part of the callback data of messages
// already sent: never renumber them, add new values at the end.
type Menu int

// The menus and the entries of the main menu.
const (
	MenuMain         Menu = iota // the /start menu (also "« Back" from a submenu)
	MenuSize                     // the AI menu's first step, the board size ("Play the bot")
	MenuFriend                   // entry: how to play a friend (a text)
	MenuFind                     // entry: look for a random opponent (/find)
	MenuRules                    // entry: the rules (a text)
	MenuStats                    // entry: the user's results (/stats)
	MenuStyle                    // the board-style menu
	MenuStyleButtons             // entry: draw 8×8 boards as buttons (game.StyleButtons)
	MenuStyleImage               // entry: draw 8×8 boards as a picture (game.StyleImage)
	// The menus below are opened by other actions than callback.ActionMenu, so their values
	// are never sent.
	MenuLevel // the AI menu's second step, the level (after callback.ActionSize)
	MenuColor // the AI menu's last step, the colour (after callback.ActionLevel)
	MenuLang  // the language menu of /lang (its buttons carry callback.ActionLang)
	// MenuFindSize is the random opponent's size choice, opened by the MenuFind entry (its
	// buttons carry MenuFind with the size in Page, see FindData).
	MenuFindSize
	// MenuFriendPick is how to play a friend, opened by the MenuFriend entry: a chat picker
	// with the invitation ready, a link that adds the bot to a group, and an invitation link
	// to forward (MenuFriend with Page FriendLink).
	MenuFriendPick
	numMenus
)

var menuNames = [numMenus]string{"main", "size", "friend", "find", "rules", "stats", "style",
	"style_buttons", "style_image", "level", "color", "lang", "find_size", "friend_pick"}

// String returns the menu's name ("main", "size", …).
func (m Menu) String() string {
	if m >= 0 && m < numMenus {
		return menuNames[m]
	}
	return "Menu(" + strconv.Itoa(int(m)) + ")"
}

// Drawn reports whether m is a menu DrawMenu draws, not an entry that leads elsewhere.
func (m Menu) Drawn() bool {
	switch m {
	case MenuMain, MenuSize, MenuStyle, MenuLevel, MenuColor, MenuLang, MenuFindSize, MenuFriendPick:
		return true
	}
	return false
}

// MenuState is what a menu shows beyond its language; each menu reads only its fields.
type MenuState struct {
	Name  string     // MenuMain: the user's name, in the greeting
	Size  int        // MenuLevel, MenuColor: the board size chosen
	Level int        // MenuColor: the AI level chosen
	Style game.Style // MenuStyle: the user's current style
	Back  bool       // MenuStyle: add a row returning to the main menu
	// Bot is the bot's username, for MenuFriendPick's link that adds it to a group.
	Bot string
	// Unknown is for MenuLang: /lang was given a language the bot does not speak, which the
	// text says before naming the language in use.
	Unknown bool
}

// DrawMenu draws menu m in lang: its text and its buttons. An m that is not Drawn gets the
// zero Content.
func DrawMenu(m Menu, lang string, s MenuState) Content {
	switch m {
	case MenuMain:
		return Content{Text: tr(lang, i18n.KeyStartWelcome, s.Name), Keyboard: mainMenu(lang)}
	case MenuSize:
		return Content{Text: tr(lang, i18n.KeyMenuChooseSize), Keyboard: sizeMenu(lang)}
	case MenuLevel:
		return Content{Text: tr(lang, i18n.KeyMenuChooseLevel), Keyboard: levelMenu(lang, s.Size)}
	case MenuColor:
		return Content{Text: tr(lang, i18n.KeyMenuChooseColor), Keyboard: colorMenu(lang, s.Size, s.Level)}
	case MenuLang:
		text := tr(lang, i18n.KeyLangCurrent)
		if s.Unknown {
			text = tr(lang, i18n.KeyLangUnknown) + "\n" + text
		}
		return Content{Text: text, Keyboard: langMenu(lang)}
	case MenuFriendPick:
		return Content{Text: tr(lang, i18n.KeyMenuFriendHow), Keyboard: friendMenu(lang, s.Bot)}
	case MenuFindSize:
		return Content{Text: tr(lang, i18n.KeyFindChooseSize), Keyboard: findMenu(lang)}
	case MenuStyle:
		return Content{Text: tr(lang, i18n.KeyStyleChoose, StyleName(lang, s.Style)), Keyboard: styleMenu(lang, s.Back)}
	}
	return Content{}
}

// menuButton is a button of callback.ActionMenu opening m.
func menuButton(lang string, key i18n.Key, m Menu) models.InlineKeyboardButton {
	return Button(tr(lang, key), callback.Data{Action: callback.ActionMenu, Arg: int(m)}.Encode())
}

// The Arg of callback.ActionLang: the language a button of it chooses.
const (
	langArgEN = 1
	langArgRU = 2
)

// LangInMenu is the Page of the main menu's language button: the tap redraws the main menu
// in place in the language chosen. A language button with any other Page (the /lang menu's)
// answers with a line saying which language is set.
const LangInMenu = 1

// LangOfArg returns the language ("en" or "ru") that the Arg of a language button names;
// false for any other Arg (callback data is never trusted).
func LangOfArg(arg int) (string, bool) {
	switch arg {
	case langArgEN:
		return i18n.EN, true
	case langArgRU:
		return i18n.RU, true
	}
	return "", false
}

// mainMenu is the keyboard of /start.
func mainMenu(lang string) *models.InlineKeyboardMarkup {
	other := langArgRU // the language button switches to the other language
	if lang == i18n.RU {
		other = langArgEN
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
		{menuButton(lang, i18n.KeyMenuAI, MenuSize)},
		{menuButton(lang, i18n.KeyMenuFriend, MenuFriend), menuButton(lang, i18n.KeyMenuFind, MenuFind)},
		{menuButton(lang, i18n.KeyMenuRules, MenuRules), menuButton(lang, i18n.KeyMenuStats, MenuStats)},
		{menuButton(lang, i18n.KeyMenuStyle, MenuStyle), Button(tr(lang, i18n.KeyMenuLang), callback.Data{Action: callback.ActionLang, Page: LangInMenu, Arg: other}.Encode())},
	}}
}

// backRow is the last row of a step of the AI menu: « Back, which sends data.
func backRow(lang, data string) []models.InlineKeyboardButton {
	return []models.InlineKeyboardButton{Button(tr(lang, i18n.KeyMenuBack), data)}
}

// sizeMenu is the keyboard of the AI menu's first step: Arg is the size; Back returns to
// the main menu.
func sizeMenu(lang string) *models.InlineKeyboardMarkup {
	row := make([]models.InlineKeyboardButton, 0, len(game.Sizes))
	for _, n := range game.Sizes {
		row = append(row, Button(strconv.Itoa(n)+"×"+strconv.Itoa(n),
			callback.Data{Action: callback.ActionSize, Arg: n}.Encode()))
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{row,
		backRow(lang, callback.Data{Action: callback.ActionMenu, Arg: int(MenuMain)}.Encode())}}
}

// levelMenu is the keyboard of the AI menu's second step: Page carries the size chosen, Arg
// the level; Back returns to the size step.
func levelMenu(lang string, size int) *models.InlineKeyboardMarkup {
	var rows [][]models.InlineKeyboardButton
	var row []models.InlineKeyboardButton
	for l := 1; l <= game.MaxLevel; l++ {
		row = append(row, Button(strconv.Itoa(l)+". "+LevelName(lang, l),
			callback.Data{Action: callback.ActionLevel, Page: size, Arg: l}.Encode()))
		if len(row) == 2 {
			rows = append(rows, row)
			row = nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	rows = append(rows, backRow(lang, callback.Data{Action: callback.ActionMenu, Arg: int(MenuSize)}.Encode()))
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// colorMenu is the keyboard of the AI menu's last step: Page is the size, Ply the level, Arg
// the colour (0 black, 1 white, 2 random); Back returns to the level step of that size.
func colorMenu(lang string, size, level int) *models.InlineKeyboardMarkup {
	c := func(key i18n.Key, arg int) models.InlineKeyboardButton {
		return Button(tr(lang, key), callback.Data{Action: callback.ActionColor, Page: size, Ply: level, Arg: arg}.Encode())
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
		{c(i18n.KeyColorBlack, 0), c(i18n.KeyColorWhite, 1), c(i18n.KeyColorRandom, 2)},
		backRow(lang, callback.Data{Action: callback.ActionSize, Arg: size}.Encode()),
	}}
}

// langMenu offers the two languages, each named in itself, the active one (lang) marked ✓.
func langMenu(lang string) *models.InlineKeyboardMarkup {
	name := func(l, s string) string {
		if l == lang {
			return "✓ " + s
		}
		return s
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{
		Button(name(i18n.EN, "English"), callback.Data{Action: callback.ActionLang, Arg: langArgEN}.Encode()),
		Button(name(i18n.RU, "Русский"), callback.Data{Action: callback.ActionLang, Arg: langArgRU}.Encode()),
	}}}
}

// StyleName names a style in words.
func StyleName(lang string, s game.Style) string {
	if s == game.StyleImage {
		return tr(lang, i18n.KeyStyleNameImage)
	}
	return tr(lang, i18n.KeyStyleNameButtons)
}

// styleMenu offers the two styles; back adds a row returning to the main menu.
func styleMenu(lang string, back bool) *models.InlineKeyboardMarkup {
	rows := [][]models.InlineKeyboardButton{{menuButton(lang, i18n.KeyStyleButtons, MenuStyleButtons), menuButton(lang, i18n.KeyStyleImage, MenuStyleImage)}}
	if back {
		rows = append(rows, []models.InlineKeyboardButton{menuButton(lang, i18n.KeyMenuBack, MenuMain)})
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// FriendLink is the Page of the MenuFriend button that posts an invitation link to forward
// (what /new does in a private chat).
const FriendLink = 1

// StartGroupPayload is the start parameter of the link that adds the bot to a group: the
// /start that Telegram then sends in the group opens a lobby there.
const StartGroupPayload = "play"

// InviteQuery is the inline query that the chat picker of MenuFriendPick types for the user:
// the default board (never empty: the library drops an empty query).
const InviteQuery = "8"

// friendMenu is the keyboard of MenuFriendPick: the chat picker with an inline invitation
// ready (switch_inline_query_chosen_chat), the link that adds the bot (username) to a group,
// the invitation link, and Back.
func friendMenu(lang, username string) *models.InlineKeyboardMarkup {
	rows := [][]models.InlineKeyboardButton{
		{{Text: tr(lang, i18n.KeyFriendPick), SwitchInlineQueryChosenChat: &models.SwitchInlineQueryChosenChat{
			Query: InviteQuery, AllowUserChats: true, AllowGroupChats: true}}},
	}
	if username != "" {
		rows = append(rows, []models.InlineKeyboardButton{{Text: tr(lang, i18n.KeyFriendGroup),
			URL: "https://t.me/" + username + "?startgroup=" + StartGroupPayload}})
	}
	rows = append(rows,
		[]models.InlineKeyboardButton{Button(tr(lang, i18n.KeyFriendLink),
			callback.Data{Action: callback.ActionMenu, Arg: int(MenuFriend), Page: FriendLink}.Encode())},
		backRow(lang, callback.Data{Action: callback.ActionMenu, Arg: int(MenuMain)}.Encode()))
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}
