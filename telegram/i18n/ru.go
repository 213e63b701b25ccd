package i18n

var ru = map[Key]string{
	KeyCmdStart:  "Начало: главное меню",
	KeyCmdAI:     "Игра с ботом: /ai [размер] [уровень 1-6] [black|white|random]",
	KeyCmdNew:    "Вызов человеку: лобби в группе, ссылка-приглашение в личке",
	KeyCmdFind:   "Случайный соперник: /find [размер]",
	KeyCmdCancel: "Прекратить поиск соперника",
	KeyCmdBoard:  "Показать доску ещё раз",
	KeyCmdMove:   "Сделать ход: /move d3",
	KeyCmdResign: "Сдаться (или отменить своё лобби)",
	KeyCmdStats:  "Ваши результаты и рейтинг",
	KeyCmdTop:    "Лучшие игроки (в группе — этой группы)",
	KeyCmdRules:  "Правила реверси",
	KeyCmdHelp:   "Что умеет бот",
	KeyCmdLang:   "Язык: /lang ru или /lang en",
	KeyCmdStyle:  "Доска 8×8 кнопками или картинкой: /style buttons|image",

	KeyStartWelcome:    "Привет, %s! Я провожу партии в реверси (отелло): со мной, с другом, в группе или со случайным соперником. Во что сыграем?",
	KeyMenuAI:          "🤖 Играть с ботом",
	KeyMenuFriend:      "👥 Играть с другом",
	KeyMenuFind:        "🎲 Случайный соперник",
	KeyMenuRules:       "📖 Правила",
	KeyMenuStats:       "📊 Моя статистика",
	KeyMenuLang:        "🌐 Language: English",
	KeyMenuBack:        "« Назад",
	KeyMenuStyle:       "🎨 Вид доски",
	KeyMenuChooseSize:  "Выберите размер доски:",
	KeyMenuChooseLevel: "Выберите уровень бота:",
	KeyMenuChooseColor: "Выберите цвет (чёрные ходят первыми):",
	KeyMenuFriendHow:   "Чтобы сыграть с другом: отправьте ему приглашение командой /new здесь, или наберите моё имя в любом чате и выберите доску, или добавьте меня в группу и напишите там /new.",
	KeyColorBlack:      "⚫ Чёрные",
	KeyColorWhite:      "⚪ Белые",
	KeyColorRandom:     "🎲 Случайно",
	KeyColorNameBlack:  "чёрными",
	KeyColorNameWhite:  "белыми",

	KeyHelpText: `Что я умею:

/ai [размер] [уровень] [цвет] — игра со мной. Размеры 8, 10, 12, 16; уровни от 1 (Начинающий) до 6 (Мастер); цвет black, white или random. Пример: /ai 8 3 white.
/new [размер] — вызов человеку: в группе открывает партию, к которой может присоединиться любой; в личном чате даёт приглашение, которое можно переслать.
/find [размер] — игра со случайным соперником; /cancel прекращает поиск.
/board — показать текущую доску ещё раз.
/move d3 — ход текстом (в личном чате можно просто d3).
/resign — сдаться.
/stats, /top — результаты и рейтинги.
/rules — правила.
/lang ru | en — язык.
/style buttons | image — вид доски 8×8: поле из кнопок или картинка с кнопками ваших возможных ходов (большие доски всегда картинкой). Выбор действует в ваших личных чатах, а партия в группе рисуется так, как выбрал тот, кто её открыл.

А ещё можно набрать моё имя в любом чате и предложить партию прямо там.`,

	KeyRulesText: `Как играть в реверси

Доска — квадрат из клеток: 8×8 — классика, на 10×10, 12×12 и 16×16 партии длиннее. Столбцы обозначены буквами слева направо (a, b, c…), строки — числами сверху вниз (1, 2, 3…): a1 — левый верхний угол.

В начале в центре стоят четыре фишки: две чёрные ⚫ и две белые ⚪ по диагоналям. Первыми ходят чёрные, дальше игроки ходят по очереди.

Ход — это фишка своего цвета на пустой клетке, поставленная так, чтобы хотя бы по одной прямой (по горизонтали, вертикали или диагонали) между ней и другой вашей фишкой оказался ряд фишек соперника. Все такие ряды переворачиваются в ваш цвет. Ход, который ничего не переворачивает, делать нельзя.

Если ход есть, его нужно сделать. Если хода нет, вы пропускаете, и соперник ходит снова; пропуск я делаю за вас и сообщаю о нём.

Партия кончается, когда ходить не может никто, обычно когда доска заполнена. Побеждает тот, у кого больше фишек; при равенстве — ничья.

Как ходить здесь: нажмите на клетку доски. На больших досках позицию показывает картинка, а кнопки перечисляют ваши возможные ходы. Ход можно и написать: d3 в личном чате, /move d3 где угодно (в группах я вижу только команды).

Если соперник слишком долго не ходит в свою очередь, можно забрать победу. В игре со мной можно отменить ход, а на уровнях 1-3 — попросить подсказку.`,

	KeyLevel1: "Начинающий",
	KeyLevel2: "Новичок",
	KeyLevel3: "Любитель",
	KeyLevel4: "Клубный игрок",
	KeyLevel5: "Эксперт",
	KeyLevel6: "Мастер",

	KeyErrNoGame:         "Здесь нет партии. Начните её командой /ai, /new или /find.",
	KeyErrNotYourGame:    "Это не ваша партия: ходить могут только двое игроков.",
	KeyErrNotYourTurn:    "Сейчас не ваш ход.",
	KeyErrStale:          "Доска изменилась, пока вы смотрели. Взгляните ещё раз и сделайте ход.",
	KeyErrOffBoard:       "Такой клетки на этой доске нет.",
	KeyErrOccupied:       "Эта клетка занята.",
	KeyErrIllegal:        "Сюда ходить нельзя: ход должен перевернуть хотя бы одну фишку.",
	KeyErrGameOver:       "Эта партия окончена.",
	KeyErrNotStarted:     "Партия ещё не началась: ждём второго игрока.",
	KeyErrNotOver:        "Партия ещё идёт.",
	KeyErrConflict:       "Кто-то походил в тот же миг. Нажмите ещё раз.",
	KeyErrAlreadyPlaying: "Здесь уже идёт партия. Доиграйте её или сдайтесь (/resign).",
	KeyErrOwnLobby:       "Это ваша собственная партия: дождитесь, пока присоединится кто-то другой.",
	KeyErrLobbyTaken:     "К этой партии уже присоединился другой игрок.",
	KeyErrNotAIGame:      "Это можно только в игре с ботом.",
	KeyErrNoHint:         "Подсказки есть только на уровнях 1-3.",
	KeyErrNothingToUndo:  "Нет вашего хода, который можно отменить.",
	KeyErrNotIdle:        "У соперника ещё есть время на ход.",
	KeyErrPeopleOnly:     "Это можно только в партии между людьми.",
	KeyErrBadSize:        "Размеры доски: 8, 10, 12 или 16.",
	KeyErrBadLevel:       "Уровни — от 1 до 6.",
	KeyErrBadRequest:     "Не понял запрос.",
	KeyErrBusy:           "Я думаю сразу над многими партиями. Нажмите на доску ещё раз чуть позже.",
	KeyErrInternal:       "У меня что-то сломалось. Попробуйте ещё раз.",
	KeyErrUnknownCommand: "Такой команды я не знаю. /help — список того, что я умею.",
	KeyErrBadMove:        "Не понимаю «%s». Напишите ход, например d3.",
	KeyErrPrivateOnly:    "Это работает в личном чате со мной.",

	// Issue 12 (trust-edge): taps whose data belongs to another message, forged invitations.
	KeyErrForeignBoard:      "Эта кнопка не относится к этому сообщению. Ничего не сделано.",
	KeyErrOldBoard:          "Эта доска устарела. Отправьте /board, чтобы получить актуальную.",
	KeyErrBadInvitation:     "Это приглашение здесь недействительно. Отправьте новое.",
	KeyErrInvitationExpired: "Срок этого приглашения истёк. Отправьте новое.",

	KeyLobbyText:         "%s хочет сыграть в реверси на доске %d×%d (%s). Кто примет вызов?",
	KeyLobbyTextColor:    "%s хочет сыграть в реверси на доске %d×%d и играет %s. Кто примет вызов?",
	KeyLobbyJoin:         "✅ Присоединиться",
	KeyLobbyCancel:       "✖ Отменить",
	KeyLobbyCancelled:    "Партия отменена.",
	KeyLobbyRandomColors: "цвета по жребию",
	KeyInviteCreated:     "Перешлите следующее сообщение другу. Кто его откроет, сыграет с вами на доске %d×%d.",
	KeyInviteText:        "%s приглашает вас сыграть в реверси на доске %d×%d.",
	KeyInviteButton:      "▶ Играть",
	KeyInlineTitle:       "Реверси %[1]d×%[1]d",
	KeyInlineDescription: "Предложить партию на доске %[1]d×%[1]d; играет первый, кто нажмёт «Присоединиться»",
	KeyInlineText:        "%s приглашает этот чат сыграть в реверси на доске %d×%d. Играет первый, кто нажмёт «Присоединиться».",

	KeyFindQueued:    "Ищу соперника для доски %d×%d… Напишу, когда найду. /cancel прекращает поиск.",
	KeyFindPaired:    "Соперник найден: %s. Вы играете %s.",
	KeyFindCancelled: "Поиск соперника прекращён.",
	KeyFindNotQueued: "Вы и не искали соперника.",

	KeyGamePlayers:    "⚫ %s — ⚪ %s",
	KeyGameThinking:   "Думаю…",
	KeyGameBotName:    "Бот (%s)",
	KeyGameIdleWait:   "Вы сможете забрать победу, если соперник не походит за %s.",
	KeyGameHint:       "Попробуйте %s.",
	KeyNoticeYourMove: "%s: ход %s. Теперь ваш ход.",
	KeyNoticeGameOver: "%s: ход %s. Партия окончена — взгляните на доску.",
	KeyNoticeResigned: "%s сдаётся. Партия окончена.",
	KeyGameMoved:      "Ход %s сделан. Доска сейчас обновится.",
	KeyGameMovedReply: "Ход %s сделан, бот ответил %s. Доска сейчас обновится.",
	KeyGameRedrawing:  "Доска вот-вот обновится и покажет последний ход: взгляните через мгновение.",
	KeyGameUndone:     "one {Отменён %d ход.} few {Отменено %d хода.} many {Отменено %d ходов.} other {Отменено %d хода.}",
	KeyGamePass:       "У игрока %s нет хода — пропуск.",

	KeyBtnUndo:    "↩ Отменить",
	KeyBtnHint:    "💡 Подсказка",
	KeyBtnResign:  "🏳 Сдаться",
	KeyBtnRematch: "🔁 Реванш",
	KeyBtnClaim:   "⏰ Забрать победу",

	// /style.
	KeyStyleChoose:      "Как рисовать для вас доски 8×8? Кнопки: доска — клавиатура, по клеткам которой нажимают. Картинка: изображение и кнопки с вашими возможными ходами. Сейчас: %s.", // style name
	KeyStyleButtons:     "⬛ Кнопки",
	KeyStyleImage:       "🖼 Картинка",
	KeyStyleNameButtons: "кнопки",
	KeyStyleNameImage:   "картинка",
	KeyStyleSet:         "Доски 8×8 будут рисоваться так: %s.", // style name
	KeyGameClaimOwnTurn: "Сейчас ваш ход: забрать победу можно, только пока вас заставляет ждать соперник.",

	KeyResultRecord: "Запись партии: %s",

	KeyStatsHeader:   "%s — рейтинг %d",
	KeyStatsPeople:   "С людьми, %s: %s, %s, %s.",
	KeyStatsAIHeader: "С ботом:",
	KeyStatsAILine:   "%s: %s, %s, %s",
	KeyStatsNone:     "Законченных партий пока нет.",
	KeyTopGlobal:     "Лучшие игроки — рейтинг (победы/поражения/ничьи в партиях с людьми):",
	KeyTopGroup:      "Лучшие игроки этой группы — рейтинг (победы/поражения/ничьи в партиях с людьми):",
	KeyTopLine:       "%d. %s — %d (%d/%d/%d)",
	KeyTopNamesake:   "%s (%d)",
	KeyTopYou:        "%s ← вы",
	KeyTopEmpty:      "Ещё никто не закончил рейтинговую партию.",

	KeyCountWins:   "one {%d победа} few {%d победы} many {%d побед} other {%d победы}",
	KeyCountLosses: "one {%d поражение} few {%d поражения} many {%d поражений} other {%d поражения}",
	KeyCountDraws:  "one {%d ничья} few {%d ничьи} many {%d ничьих} other {%d ничьей}",
	KeyCountGames:  "one {%d партия} few {%d партии} many {%d партий} other {%d партии}",

	KeyLangCurrent: "Язык: русский. /lang en переключает на английский.",
	KeyLangSet:     "Буду говорить по-русски.",
	KeyLangUnknown: "Я говорю по-английски (en) и по-русски (ru): /lang en или /lang ru.",

	KeyUnitDays:    "one {%d день} few {%d дня} many {%d дней} other {%d дня}",
	KeyUnitHours:   "one {%d час} few {%d часа} many {%d часов} other {%d часа}",
	KeyUnitMinutes: "one {%d минута} few {%d минуты} many {%d минут} other {%d минуты}",

	// Issue 12 item 7 (corrupt records set aside): the text of host code set_aside.
	KeyErrSetAside: "Вашу партию не удалось прочитать, и она отложена; начните новую: /ai или /new.",

	// Atomic starts (issue 12, trust-store): the other player's chat has another game.
	KeyErrOpponentBusy: "Соперник сейчас играет другую партию. Попробуйте, когда она закончится.",

	// Per-user update budget (issue 12, trust-flood): the short answer to updates over it.
	KeyFloodTooFast: "Слишком быстро — подождите немного.",

	KeyArgBadLevel:  "«%s» — не уровень: уровни от 1 до 6.",
	KeyArgBadSize:   "«%s» — не размер доски: размеры 8, 10, 12 и 16.",
	KeyArgNotSquare: "«%s» — не клетка доски.",
	KeyArgOffBoard:  "Клетки «%[1]s» на этой доске нет: столбцы от a до %[2]s, строки от 1 до %[3]d.",
	KeyArgUnknown:   "Не понимаю «%s».",
	KeyUsageAI:      "Как писать: /ai [размер] [уровень] [цвет] — размеры 8, 10, 12, 16; уровни от 1 (самый слабый) до 6 (самый сильный); цвет black, white или random. Пример: /ai 8 3 white.",
	KeyUsageNew:     "Как писать: /new [размер] [цвет] — размеры 8, 10, 12, 16; цвет black, white или random. Пример: /new 10.",
	KeyUsageFind:    "Как писать: /find [размер] — размеры 8, 10, 12, 16. Пример: /find 10.",
	KeyUsageMove:    "Как писать: /move d3 — буква столбца и номер строки; a1 — левый верхний угол. В личном чате можно просто d3.",

	KeyErrOwnInvite:  "Это ваше собственное приглашение: перешлите его другу, и тот, кто его откроет, сыграет с вами.",
	KeyErrInYourGame: "Это ваша партия: вы уже в ней играете.",

	// The reminder of a turn in a group or inline game, which mentions the player to move.
	KeyRemindTurn:  "%s, ваш ход! Соперник: %s, последний ход: %s.",
	KeyRemindFirst: "%s, ваш ход! Соперник: %s.",

	// The end of a game and what comes next (issue 15, items 2-4).
	KeyBtnResignAsk:    "🏳 Сдаться?",
	KeyBtnYes:          "Да",
	KeyBtnNo:           "Нет",
	KeyBtnAccept:       "✅ Принять",
	KeyBtnDecline:      "✖ Отказаться",
	KeyBtnWithdraw:     "✖ Отозвать",
	KeyBtnOtherGame:    "🎚 Уровень или размер",
	KeyBtnMenu:         "☰ Меню",
	KeyEndYouWin:       "Вы победили, %d : %d! 🎉",
	KeyEndYouLose:      "Вы проиграли, %d : %d. Ещё партию?",
	KeyEndRatings:      "Рейтинг: %s, %s",
	KeyEndRating:       "%s %d (%s)",
	KeyEndAborted:      "Партия прервана до того, как оба игрока сделали ход: без результата, рейтинг не меняется.",
	KeyEndRecord:       "Ходы: %s",
	KeyEndPass:         "пас",
	KeyEndMovesInRow:   "Ходы подряд, %s: %s.",
	KeyEndOffered:      "%s предлагает реванш (предложение действует %s).",
	KeyEndOfferedByYou: "Вы предложили реванш (предложение действует %s). Ждём, пока %s согласится.",
	KeyEndOfferedToYou: "%s предлагает вам реванш (предложение действует %s).",
	KeyEndAccepted:     "Реванш принят: новая партия началась.",
	KeyEndDeclined:     "%s отказывается от реванша.",
	KeyEndWithdrawn:    "%s отзывает предложение реванша.",
	KeyEndExpired:      "Предложение реванша от игрока %s истекло.",
	KeyEndOfferSent:    "Реванш предложен.",
	KeyEndOfferNotice:  "%s предлагает вам реванш: принять или отказаться можно на вашей доске.",
	KeyEndNotAsked:     "Этот вопрос не вам.",
	KeyErrNoOffer:      "Нет предложения реванша, на которое можно ответить.",
	KeyErrOwnOffer:     "Ваше предложение в силе: принять его должен соперник.",
	KeyErrOfferExpired: "Предложение реванша истекло. Нажмите «Реванш», чтобы предложить снова.",
}
