"""Legacy code pages read right without --encoding (issue 34): Western European subtitles in
Windows-1252 / ISO-8859-1/15 were read as Windows-1257 ("câble" -> "cāble"); other languages, the
BOM and UTF-16 paths and Chinese, Japanese and Korean keep working."""

import pytest

from editor.core import render
from editor.core.formats import read_any
from editor.core.decoding import decode_text
from editor.core.decoding.languages import judge_bytes

FRENCH = """Où est le câble que tu as acheté hier ?
Je ne sais pas, il était là à côté de la télé.
L'élève a déjà fini ses devoirs, c'est très bien.
Ça fait longtemps qu'on ne s'est pas vus, mon frère.
Il faut que tu viennes dîner chez nous cet été.
Qu'est-ce que tu as fait pendant les vacances ?
Nous sommes allés à la plage près de Marseille.
Le garçon a mangé une pêche et un gâteau.
Ne t'inquiète pas, tout va bien se passer.
Elle s'appelle Hélène, c'est ma sœur aînée.
Où êtes-vous né ? À Besançon, en Franche-Comté.
Je préfère rester à la maison ce soir.
C'était un problème, mais on l'a réglé.
Tu as vu l'hôtel ? Il est fermé depuis Noël.
Voilà pourquoi il faut être prudent sur la route.
Après le déjeuner, on ira voir le château.
Il n'y a plus de café, désolé.
Qu'est-ce qui s'est passé ? Personne ne répond.
"""
SPANISH = """¿Dónde está el cable que compraste ayer?
No lo sé, estaba al lado de la televisión.
¡Qué sorpresa! Mañana será otro día, señor.
Hace mucho tiempo que no nos vemos, hermano.
Tienes que venir a cenar con nosotros este verano.
¿Qué hiciste durante las vacaciones?
Fuimos a la playa cerca de Málaga.
El niño comió un melocotón y un pastel.
No te preocupes, todo va a salir bien.
Se llama Inés, es mi hermana mayor.
Prefiero quedarme en casa esta noche.
Era un problema, pero ya está resuelto.
Después del almuerzo iremos a ver el castillo.
Ya no queda café, lo siento. ¿Quién llamó?
"""
GERMAN = """Wo ist das Kabel, das du gestern gekauft hast?
Ich weiß es nicht, es lag neben dem Fernseher.
Das Mädchen hat schon ihre Hausaufgaben gemacht.
Wir haben uns lange nicht gesehen, Bruder.
Du musst im Sommer zum Abendessen zu uns kommen.
Was hast du während der Ferien gemacht?
Wir sind an den Strand in der Nähe von Lübeck gefahren.
Der Junge hat einen Pfirsich und ein Stück Kuchen gegessen.
Mach dir keine Sorgen, alles wird gut.
Sie heißt Jürgen? Nein, sie heißt Jördis, meine ältere Schwester.
Ich möchte heute Abend lieber zu Hause bleiben.
Das war ein Problem, aber wir haben es gelöst.
Nach dem Frühstück gehen wir zum Schloss.
Es gibt keinen Kaffee mehr, tut mir leid. Hören Sie?
"""
PORTUGUESE = """Onde está o cabo que você comprou ontem?
Não sei, estava ao lado da televisão.
A menina já terminou a lição de casa.
Faz muito tempo que não nos vemos, irmão.
Você precisa vir jantar conosco neste verão.
O que você fez durante as férias?
Fomos à praia perto de São Paulo.
O menino comeu um pêssego e um pedaço de bolo.
Não se preocupe, tudo vai dar certo.
Ela se chama Conceição, é minha irmã mais velha.
Prefiro ficar em casa esta noite, então.
Era um problema, mas já está resolvido.
Depois do almoço vamos ver o castelo.
Não há mais café, desculpe. Você ouviu a canção?
"""
ITALIAN = """Dov'è il cavo che hai comprato ieri?
Non lo so, era lì accanto alla televisione.
La ragazza ha già finito i compiti, è molto brava.
È da tanto tempo che non ci vediamo, fratello.
Devi venire a cena da noi quest'estate, perché no?
Cosa hai fatto durante le vacanze?
Siamo andati al mare vicino a Forlì.
Il bambino ha mangiato una pesca e un pezzo di torta.
Non preoccuparti, andrà tutto bene, però stai attento.
Si chiama Niccolò, è mio fratello più grande.
Preferisco restare a casa stasera.
Era un problema, ma l'abbiamo risolto così.
Dopo pranzo andremo a vedere il castello.
Non c'è più caffè, mi dispiace. Perché ridi?
"""
POLISH = """Gdzie jest kabel, który kupiłeś wczoraj?
Nie wiem, leżał obok telewizora.
Dziewczyna już skończyła zadanie domowe.
Dawno się nie widzieliśmy, bracie.
Musisz przyjść do nas na kolację tego lata.
Co robiłeś podczas wakacji? Źle się czułeś?
Pojechaliśmy nad morze niedaleko Gdańska.
Chłopiec zjadł brzoskwinię i kawałek ciasta.
Nie martw się, wszystko będzie dobrze.
Ona ma na imię Małgorzata, to moja starsza siostra.
Wolę zostać dziś wieczorem w domu. Śmiało!
To był problem, ale już go rozwiązaliśmy.
Po obiedzie pójdziemy zobaczyć zamek. Żółć.
"""
CZECH = """Kde je ten kabel, který jsi včera koupil?
Nevím, ležel vedle televize.
Dívka už dokončila domácí úkol.
Dlouho jsme se neviděli, bratře.
Musíš k nám přijít na večeři tohle léto.
Co jsi dělal o prázdninách? Řekni mi to.
Jeli jsme k moři nedaleko Brna. Šťastný den.
Chlapec snědl broskev a kousek dortu.
Neboj se, všechno bude v pořádku.
Jmenuje se Růžena, je to moje starší sestra.
"""
HUNGARIAN = """Hol van a kábel, amit tegnap vettél?
Nem tudom, a tévé mellett volt.
A lány már befejezte a házi feladatot.
Régóta nem láttuk egymást, testvér.
El kell jönnöd hozzánk vacsorázni nyáron.
Mit csináltál a szünidőben? Jó volt?
Elmentünk a tengerpartra. Az őszi idő szép.
A fiú megevett egy őszibarackot és egy szelet tortát.
Ne aggódj, minden rendben lesz, ígérem.
"""
RUSSIAN = """Где кабель, который ты купил вчера?
Я не знаю, он лежал рядом с телевизором.
Девочка уже сделала домашнее задание.
Мы давно не виделись, брат.
Ты должен прийти к нам на ужин этим летом.
Что ты делал во время каникул? Всё хорошо?
Мы поехали на море недалеко от Одессы.
Мальчик съел персик и кусок торта.
Не волнуйся, всё будет хорошо.
Её зовут Наташа, это моя старшая сестра.
"""
UKRAINIAN = """Де кабель, який ти купив учора?
Я не знаю, він лежав біля телевізора.
Дівчинка вже зробила домашнє завдання.
Ми давно не бачилися, брате. Їжак і ґанок.
Ти маєш прийти до нас на вечерю цього літа.
Що ти робив під час канікул? Усе добре?
"""
GREEK = """Πού είναι το καλώδιο που αγόρασες χθες;
Δεν ξέρω, ήταν δίπλα στην τηλεόραση.
Το κορίτσι έχει ήδη τελειώσει τα μαθήματα.
Έχουμε πολύ καιρό να τα πούμε, αδελφέ.
Πρέπει να έρθεις για φαγητό το καλοκαίρι.
Τι έκανες στις διακοπές; Όλα καλά;
"""
TURKISH = """Dün aldığın kablo nerede?
Bilmiyorum, televizyonun yanındaydı.
Kız ödevini çoktan bitirdi.
Uzun zamandır görüşmüyoruz, kardeşim.
Bu yaz akşam yemeğine bize gelmelisin.
Tatilde ne yaptın? Her şey yolunda mı?
"""
LITHUANIAN = """Kur yra kabelis, kurį vakar nupirkai?
Nežinau, jis gulėjo šalia televizoriaus.
Mergaitė jau baigė namų darbus.
Seniai nesimatėme, broli. Ačiū už viską.
"""
CHINESE = "你好，世界。这是一个测试字幕文件。谢谢，我很好。我们明天去北京吧。\n"
JAPANESE = "こんにちは、世界。これはテスト用の字幕ファイルです。明日は東京に行きます。\n"
KOREAN = "안녕하세요, 세계. 이것은 테스트 자막 파일입니다. 내일 서울에 갑니다.\n"


def srt(text, repeat=1):
    """A SubRip file of the text's lines, one cue each, ``repeat`` times over."""
    lines = [line for line in text.split("\n") if line] * repeat
    return "\n".join(f"{n}\n00:{n // 20:02d}:{n * 3 % 60:02d},000 --> 00:{n // 20:02d}:{n * 3 % 60:02d},900\n"
                     f"{line}\n" for n, line in enumerate(lines, 1))


WESTERN = [(FRENCH, "cp1252"), (FRENCH, "iso8859_15"), (SPANISH, "cp1252"), (SPANISH, "latin_1"),
           (GERMAN, "cp1252"), (GERMAN, "iso8859_15"), (PORTUGUESE, "cp1252"),
           (PORTUGUESE, "latin_1"), (ITALIAN, "cp1252"), (ITALIAN, "iso8859_15")]
OTHERS = [(POLISH, "cp1250"), (POLISH, "iso8859_2"), (CZECH, "cp1250"), (CZECH, "iso8859_2"),
          (HUNGARIAN, "cp1250"), (RUSSIAN, "cp1251"), (RUSSIAN, "koi8_r"), (RUSSIAN, "cp866"),
          (UKRAINIAN, "cp1251"), (GREEK, "cp1253"), (GREEK, "iso8859_7"), (TURKISH, "cp1254"),
          (LITHUANIAN, "cp1257")]


@pytest.mark.parametrize("text,encoding", WESTERN + OTHERS)
@pytest.mark.parametrize("repeat", [1, 20])
def test_legacy_subtitles_read_right(tmp_path, text, encoding, repeat):
    path = tmp_path / "a.srt"
    path.write_bytes(srt(text, repeat).encode(encoding))
    doc = read_any(path)
    assert render(doc) == render(read_any(_utf8(tmp_path, srt(text, repeat))))
    assert "a guess from its" in doc.metadata.warnings[0]


def _utf8(tmp_path, text):
    path = tmp_path / "utf8.srt"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_words_of_the_issue(tmp_path):
    """The French file of the issue: "câble" was read "cāble", "où" "oł", "élève" "élčve"."""
    text = srt("Où est le câble ?\nL'élève est là.\nC'est déjà fini, très bien.\n", 40)
    for encoding in ("cp1252", "iso8859_15"):
        decoded, warnings = decode_text(text.encode(encoding), "a.srt")
        assert decoded == text
        assert "French" in warnings[0]


@pytest.mark.parametrize("text,encoding", WESTERN)
def test_a_single_line_reads_right(text, encoding):
    line = text.split("\n")[0] + "\n"
    assert decode_text(line.encode(encoding), "a.txt")[0] == line


def test_iso_8859_15_letters_that_windows_1252_lacks():
    """"œ" and "€" are 0xBD and 0xA4 in ISO-8859-15, "½" and "¤" in Windows-1252."""
    text = "Elle a le cœur sur la main, c'est une sœur pour moi. Ça coûte 5 € et il est là.\n" * 3
    assert decode_text(text.encode("iso8859_15"), "a.txt")[0] == text
    assert decode_text(text.encode("cp1252"), "a.txt")[0] == text


@pytest.mark.parametrize("text,encoding", [(CHINESE, "gb18030"), (JAPANESE, "shift_jis"),
                                           (JAPANESE, "euc_jp"), (KOREAN, "euc_kr")])
def test_east_asian_text_is_left_to_byte_statistics(text, encoding):
    data = srt(text, 3).encode(encoding)
    assert judge_bytes(data) is None
    assert decode_text(data, "a.srt")[0] == srt(text, 3)


def test_a_bilingual_chinese_file_is_not_taken_for_english():
    """English lines between Chinese ones: the English words must not make it Windows-1252."""
    text = srt("你在哪里买的电缆？\nWhere is the cable you bought?\n我不知道，它在电视旁边。\n"
               "I don't know, it was next to the TV.\n", 5)
    assert decode_text(text.encode("gb18030"), "a.srt")[0] == text


@pytest.mark.parametrize("encoding,bom", [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"),
                                          ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                                          ("utf-16-le", b"")])
def test_unicode_paths_are_untouched(encoding, bom):
    text = srt(FRENCH + RUSSIAN)
    decoded, warnings = decode_text(bom + text.encode(encoding), "a.srt")
    assert decoded == text
    assert not any("a guess" in w for w in warnings)


def test_english_with_curly_quotes_is_windows_1252():
    text = "I don\u2019t know \u2014 it\u2019s \u201cfine\u201d, you know.\n"
    assert decode_text(text.encode("cp1252"), "a.txt")[0] == text
