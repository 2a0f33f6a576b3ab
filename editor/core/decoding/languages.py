"""Which legacy code page a text is in, judged by the words each reading gives.

A byte such as 0xE8 is "è" in Windows-1252, "č" in Windows-1250 and Windows-1257 and "и" in
Windows-1251: byte statistics alone cannot tell a French "élève" from "élčve". Words can. Each
candidate reading is judged in each language Stet knows: its frequent words (the ASCII ones are
the same in every Latin reading and say which language the text is in), and whether every word
with a letter beyond ASCII uses only that language's letters, in a sensible case ("élève" is
French, "élčve" is no language's; "оПХБЕР" is Russian read with the wrong Cyrillic code page).
The reading with the most found words and the fewest impossible ones wins; where no reading is
clearly a language (Chinese, Japanese, Korean, too little text) the caller asks another judge.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: Single-byte code pages tried, most common first: ties go to the earlier one.
CODE_PAGES = ("cp1252", "iso8859_15", "cp1250", "iso8859_2", "cp1251", "koi8_r", "koi8_u",
              "iso8859_5", "cp866", "cp1253", "iso8859_7", "cp1254", "iso8859_9", "cp1257",
              "iso8859_13", "latin_1", "cp850", "mac_roman")

#: Per language: the letters beyond ASCII it writes (lowercase), and some of its most frequent
#: words (lowercase; words with apostrophes are looked up by their parts).
_LANGUAGES: dict[str, tuple[str, str]] = {
    "en": ("éèêëïîçñöüàâôáóíú",
           "the a an and to of in is it you that i he she we they was for on are with as at be "
           "this have not but what all can do no yes so if my your me him her there here just "
           "know like don t m s re ll ve d get go got oh well right come now"),
    "fr": ("àâæçéèêëîïôœùûüÿ",
           "le la les de des du un une et est à au aux en que qui ne pas je tu il elle on nous "
           "vous ils elles ce c ça cette ces mon ma mes ton ta tes son sa ses pour par sur dans "
           "avec mais ou où oui non très bien plus tout tous été être avoir fait déjà là voilà "
           "après même aussi comme qu l d j n s m t y suis es sont ai as a avez ont était moi "
           "toi lui leur se si quoi pourquoi comment quand rien merci peut veux sais"),
    "es": ("áéíñóúü",
           "el la los las de del y a en que es no se un una por con para lo le su al como más "
           "pero sí yo tú él ella usted me te mi tu qué está estoy están bien muy ya hay todo "
           "esto eso esta este ser fue era también sé porque cuando dónde cómo quién aquí ahora "
           "señor gracias nada algo vamos puedo tengo"),
    "pt": ("áâãàçéêíóôõú",
           "o a os as de do da dos das e é em no na um uma que não se por para com mais mas "
           "como eu você ele ela nós seu sua meu minha isso isto está estou são foi era tem ter "
           "já muito bem sim também só então quando onde porque aqui agora obrigado nada até ao "
           "à vai vou"),
    "it": ("àèéìíîòóùú",
           "il lo la i gli le di del della e è un una che non si per con ma come io tu lui lei "
           "noi voi mi ti ci sono sei ha ho hai era più già anche così perché cosa qui là bene "
           "molto tutto questo quello sì no dove quando grazie niente solo c l d un po può "
           "dell nel al alla"),
    "de": ("äöüßé",
           "der die das und ist nicht ich du er sie es wir ihr ein eine einen dem den des zu "
           "mit auf für von im in an was wie aber ja nein so auch noch nur hier da mir mich "
           "dich dir uns sind bin hat habe haben war wird kann muss schon mehr gut oder wenn "
           "dass weiß über können müssen möchte würde wäre hätte später schön natürlich zurück"),
    "nl": ("éëïöèáóü",
           "de het een en is van ik je niet dat die er te zijn op wat met hij we ze maar voor "
           "als aan nog ook bij of dan naar hier daar heb heeft was wel geen mij jij hoe weet "
           "één"),
    "ca": ("àèéíïòóúüç",
           "el la els les de del i a en que és no es un una per amb però com jo tu ell ella "
           "més molt ja això aquí són està perquè què també sí gràcies"),
    "sv": ("åäöé",
           "och att det som en på är av för med till den har de inte om ett hon han jag du vi "
           "var så men kan från när eller här där också nej ja någon efter"),
    "da": ("æøåé",
           "og i at det en den til er som på de med han af for ikke der var mig sig men et har "
           "om vi min jeg du hun så kan nej ja være også hvad skal jo"),
    "fi": ("äöå",
           "ja on ei se että hän oli en olen mitä minä sinä me he tämä kuin niin mutta jos nyt "
           "vain kun"),
    "pl": ("ąćęłńóśźż",
           "nie to i w na z się że jest do co jak ale tak mnie mi ja ty on ona my wy czy już o "
           "tu tam być był była jestem jesteś go jej ich są tylko dla po od przez też może "
           "wszystko bardzo dobrze dziękuję proszę który która gdzie kiedy teraz tego tym więc "
           "żeby jeszcze coś ktoś"),
    "cs": ("áčďéěíňóřšťúůýž",
           "a je to se na v že s z do ne jsem jsi jste jsou byl bylo by ale co jak tak ano já "
           "ty on ona my vy mi mě tě tady tam už jen také proč když kde který která které něco "
           "všechno dobře děkuji prosím být pro od po při"),
    "sk": ("áäčďéíĺľňóôŕšťúýž",
           "a je to sa na v že s z do nie som si sú bol ale čo ako tak áno ja ty on ona my vy "
           "mi ma tu tam už len aj prečo keď kde ktorý ktorá niečo všetko dobre ďakujem prosím "
           "byť pre od po pri"),
    "hu": ("áéíóöőúüű",
           "a az és is nem hogy egy van volt meg de ha csak már még ez azt el ki be le fel mi "
           "mit te ő én ön itt ott most jó igen köszönöm kérem vagy mert hol mikor amit aki "
           "nagyon minden semmi lesz kell"),
    "ro": ("ăâîşţșț",
           "și şi în de la nu că este a să cu un o pe ce se mai ai am sunt eu tu el ea noi voi "
           "dar sau da pentru foarte bine acum aici acolo unde când cum cine tot toate fost fi"),
    "hr": ("čćđšž",
           "je i u da se na ne to su za od sa što ali kako ja ti on ona mi vi ga me te bio bila "
           "sam si smo ste će ću li ima nema ovo ono tako sve kad gdje ovdje sada hvala molim "
           "već još samo"),
    "sl": ("čšž",
           "je in v da se na ne to so za od z ali kako jaz ti on ona mi vi sem si smo ste bo "
           "bom ima nima tako vse kdaj kje tukaj zdaj hvala prosim že še samo kaj"),
    "tr": ("çğıöşüâîû",
           "bir ve bu da de ne mi ben sen o biz siz onlar için çok var yok ama gibi daha şey "
           "ile evet hayır tamam iyi nasıl neden nerede şimdi burada değil mı mu mü sana bana "
           "onu seni beni her şu olan kadar sonra"),
    "lt": ("ąčęėįšųūž",
           "ir kad tai ne su į yra kas aš tu jis ji mes jūs jie bet kaip taip čia ten dabar "
           "labai gerai ačiū prašom buvo bus būti man tau jo jos mano tavo kur kodėl kai dar "
           "jau tik viskas nieko"),
    "lv": ("āčēģīķļņšūž",
           "un ir ka ar ne es tu viņš viņa mēs jūs viņi bet kā tā šeit tur tagad ļoti labi "
           "paldies lūdzu bija būs būt man tev viņam mans tavs kur kāpēc kad vēl jau tikai "
           "viss nekas"),
    "et": ("äõöüšž",
           "ja on ei see et ma sa ta me te nad aga kui nii siin seal nüüd väga hästi aitäh "
           "palun oli olen oled mis kus miks veel juba ainult kõik midagi"),
    "ru": ("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
           "и в не на я что он с это как а то все всё она так его но ты к у же вы за бы по "
           "только её мне было вот от меня ещё нет о из ему теперь когда даже ну ли если уже "
           "или ни быть был него до вас там потом себя ничего ей может они тут где есть надо "
           "ней для мы тебя их чем была сам без чего раз тоже себе под будет тогда кто этот "
           "того потому этого какой здесь один мой чтобы сейчас были можно при после больше "
           "через эти нас про хорошо да спасибо привет"),
    "uk": ("абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
           "і в не на я що він з це як а то все вона так його але ти до у же ви за б по тільки "
           "її мені було ось від мене ще ні о із йому тепер коли навіть ну чи якщо вже або "
           "бути був вас там потім себе нічого їй може вони тут де є треба для ми тебе їх ніж "
           "була сам без чого раз теж собі під буде хто цей того тому цього який один мій щоб "
           "зараз були можна після над більше через ці нас про добре дякую так"),
    "bg": ("абвгдежзийклмнопрстуфхцчшщъьюяѝ",
           "и в не на да се че с за това е от по като но ти аз той тя ние вие те са съм си "
           "беше има няма какво как тук там сега кога къде защо добре благодаря много още вече "
           "само един една ще бих ли ни ги го я му"),
    "sr": ("абвгдђежзијклљмнњопрстћуфхцчџш",
           "и у да се на не то су за од са што али како ја ти он она ми ви га ме те био била "
           "сам си смо сте ће ћу ли има нема ово оно тако све кад где овде сада хвала молим "
           "већ још само"),
    "el": ("αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
           "και το να η ο τα του της τι δεν θα με σε είναι για από που στο στη στην στον ένα "
           "μια μου σου εγώ εσύ αυτό αυτή αυτός εδώ εκεί τώρα πολύ καλά ναι όχι ευχαριστώ πώς "
           "πού γιατί όταν ήταν έχει έχω λοιπόν όλα τους τις των"),
}


NAMES = {"en": "English", "fr": "French", "es": "Spanish", "pt": "Portuguese", "it": "Italian",
         "de": "German", "nl": "Dutch", "ca": "Catalan", "sv": "Swedish", "da": "Danish or Norwegian",
         "fi": "Finnish", "pl": "Polish", "cs": "Czech", "sk": "Slovak", "hu": "Hungarian",
         "ro": "Romanian", "hr": "Croatian, Bosnian or Serbian", "sl": "Slovene", "tr": "Turkish",
         "lt": "Lithuanian", "lv": "Latvian", "et": "Estonian", "ru": "Russian", "uk": "Ukrainian",
         "bg": "Bulgarian", "sr": "Serbian", "el": "Greek"}


@dataclass(frozen=True, slots=True)
class _Language:
    letters: frozenset[str]  # beyond ASCII, both cases
    words: frozenset[str]


def _language(letters: str, words: str) -> _Language:
    both = set(letters) | {ch.upper() for ch in letters if len(ch.upper()) == 1}
    if "ı" in letters:
        both.add("İ")  # Turkish: İ's lowercase is "i" + a combining dot
    return _Language(frozenset(both), frozenset(words.split()))


LANGUAGES: Mapping[str, _Language] = {name: _language(*data) for name, data in _LANGUAGES.items()}

#: Marks stripped from a word's ends; apostrophes and hyphens inside a word are part of it.
_EDGES = "\"'()[]{}<>.,;:!?¿¡«»‹›“”„‘’‚…–—-_*/\\|~#%&=+^`@$•·♪"
_TAGS = re.compile(r"<[^<>\n]*>|\{\\[^}\n]*\}")
_PARTS = re.compile(r"['’\-]")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True, slots=True)
class Verdict:
    """How well a reading of the bytes reads as a language: words found in its frequent-word
    list, words beyond ASCII in its letters ("good") and not ("bad")."""

    encoding: str
    language: str
    found: int
    good: int
    bad: int

    @property
    def score(self) -> int:
        return self.found + self.good - 2 * self.bad

    @property
    def sure(self) -> bool:
        """Clearly this language: some of its words, and at most one word in five beyond ASCII
        that it cannot spell."""
        return self.found >= 2 and self.found + self.good > 0 and self.bad * 4 <= self.good + self.bad


def _words(text: str) -> Counter[str]:
    """The words of a text and how often each comes: tokens between spaces without the marks at
    their ends; tokens with digits (times, numbers) are not words."""
    out: Counter[str] = Counter()
    for token, n in Counter(_TAGS.sub(" ", text).split()).items():
        word = token.strip(_EDGES)
        if word and not _DIGIT.search(word) and _LETTER.search(word):
            out[word] += n
    return out


def judge(text: str, encoding: str = "", cache: dict[str, tuple[tuple[int, int], ...]] | None = None
          ) -> Verdict:
    """The language ``text`` reads best as (see the module's docstring); ``cache`` keeps how each
    word reads in each language, for judging other readings of the same bytes."""
    cache = {} if cache is None else cache
    counts = _words(text)
    totals = [[0, 0, 0] for _ in LANGUAGES]  # found, good, bad
    for word, n in counts.items():
        marks = cache.get(word)
        if marks is None:
            marks = cache[word] = tuple(_mark(word, language) for language in LANGUAGES.values())
        for total, (found, spelled) in zip(totals, marks):
            total[0] += n * found
            if spelled > 0:
                total[1] += n
            elif spelled < 0:
                total[2] += n
    verdicts = [Verdict(encoding, name, *total) for name, total in zip(LANGUAGES, totals)]
    return max(verdicts, key=lambda v: v.score)  # the first of equals


def _mark(word: str, language: _Language) -> tuple[int, int]:
    """Whether a word is one of the language's frequent words (1 or 0), and whether it is
    spelled with the language's letters (1), not (-1) or ASCII (0)."""
    lower = word.lower().replace("i\u0307", "i")
    parts = [p for p in _PARTS.split(lower) if p]
    found = lower in language.words or (len(parts) > 1 and any(p in language.words for p in parts))
    if word.isascii():
        return int(found), 0
    if _spelled(word, language.letters):
        return int(found), 1
    return 0, -1


def _spelled(word: str, letters: frozenset[str]) -> bool:
    """Whether a word beyond ASCII is spelled with the language's letters, in a plausible case
    (no capital right after a small letter: "оПХБЕР")."""
    previous_lower = False
    for ch in word:
        if ch.isascii():
            if ch.isalpha() and ch.isupper() and previous_lower:
                return False
            previous_lower = ch.islower()
            continue
        if ch in "’‘·":
            previous_lower = False
            continue
        if ch not in letters or (ch.isupper() and previous_lower):
            return False
        previous_lower = ch.islower()
    return True


def judge_bytes(data: bytes, encodings: Iterable[str] = CODE_PAGES) -> Verdict | None:
    """The single-byte reading of ``data`` that is most clearly a language, or None when none
    clearly is one (then the text is in no code page judged here, or too short to tell)."""
    best: Verdict | None = None
    seen: set[str] = set()
    cache: dict[str, tuple[tuple[int, int], ...]] = {}
    for encoding in encodings:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if text in seen:  # an earlier, more common code page reads it alike
            continue
        seen.add(text)
        verdict = judge(text, encoding, cache)
        if best is None or verdict.score > best.score:
            best = verdict
    return best if best is not None and best.sure else None
