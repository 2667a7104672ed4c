"""Kinds the detector must hold on (privacy issue 9, round 12): written from a description of each kind.

Set N (``bench/privacy_corpus/heldout-n.tsv``, a development set from round 12) showed which kinds over-fire
and which go unseen; the lines below are *other* phrasings of each kind, invented here in both languages
(chat, typos, full-width, emoji, value first, config and CLI forms), so that a rule passes only when it
covers the kind, not set N's sentence. Each benign line must give no finding at all; each private line the
category named. Secret-shaped values are built at run time (``tests/test_layout.py``).
"""
from __future__ import annotations

import pytest

from memory_manager.privacy import scan

BEGIN_PRIVATE = "-----BEGIN " + "PRIVATE KEY-----"

#: Kind: a topic word in a statement of general knowledge (a guideline, a rate among a population, a legal
#: standard, a comparison, where a register is looked up, how a disease spreads), naming nobody.
GENERAL_KNOWLEDGE = [
    "WHO guidelines: adults with hypertension should keep sodium under 2 g per day",
    "Prevalence of type 2 diabetes among adults in China is about 12%",
    "Chapter 11 vs Chapter 7 bankruptcy for a small LLC",
    "HIV is not transmitted through sharing cups or hugging",
    "乙肝不会通过一起吃饭传染",
    "抑郁症的患病率大约是百分之四",
    "个人所得税税率表（2024 版）",
    "等额本息 vs 等额本金，哪个好？",
    "可以通过裁判文书网查到公开的判决书",
    "宪法第36条：公民有宗教信仰自由",
    "虹膜识别的误识率比指纹低一个数量级",
    "糖尿病饮食指南（2023 版）：每天主食定量",
    "Union membership rates in the UK fell again last year",
    "高血压患者每日盐摄入量建议不超过6克",
    "儿童安全座椅建议使用到 12 岁，之后用增高垫",
]

#: Kind: a note headed as knowledge (科普笔记, reading notes, cheat sheet): its lines state facts about a
#: topic, not about someone.
KNOWLEDGE_NOTES = [
    "科普笔记：糖尿病\n- 诊断标准：空腹血糖 ≥7.0\n- 常用药物：二甲双胍",
    "Reading notes: Why We Sleep\nInsomnia is linked to anxiety and depression\nCBT-I works better than pills",
]

#: Kind: a code expression or a flag where a password value would stand.
CODE_VALUES = [
    'const password = await prompt("Password: ");',
    'passwd = await vault.read("db/creds")',
    "ERROR 1045 (28000): Access denied for user 'deploy'@'10.2.0.7' (using password: YES)",
    "password: required   # set it in the prod overlay",
    "let token = std::env::var(\"API_TOKEN\")?;",
    "use std::collections::HashMap;",
]

#: Kind: a public armoured block (a release-signing key) pasted with its Base64 body; and a private-key
#: header named in a sentence with no key after it.
PGP_BODY = "\n".join(["mQINBGvCUX3Y0bKC1VMT2vs7fIrRdJ3o5F92NeBNqODwTsA2XxZjEg8y5XZccMOl",
                      "PYUpk6KlZCIHiKyTBW4oVteayglf3UAlGvDoN3OQNHNYnON0K5QrP8TfxvyraHb0",
                      "zdw0uCTE0sIq7/FG6nQjff6ddp0zrZEh/6IEqLdBVkdMo0ukr9AYULX6/WiO2xCC",
                      "=0PAS"])
PUBLIC_ARMOUR = [
    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + PGP_BODY + "\n-----END PGP PUBLIC KEY BLOCK-----\n(release key)",
    "the PKCS#8 header looks like " + BEGIN_PRIVATE,
    "PEM 文件第一行是 " + BEGIN_PRIVATE,
]

#: Kind: documented test card numbers in a block headed as test fixtures.
FIXTURES = [
    "# tests/fixtures/orders.yaml (fake data)\n- card: \"4000000000000002\"\n- card: \"5555555555554444\"",
    "// seed data for the checkout e2e\nconst cards = [\n  \"4242424242424242\",\n]",
]


#: Kind: an organisation's public account (official, support, status, "for updates").
OFFICIAL_ACCOUNTS = [
    "关注 @人民日报 官方微博获取最新消息",
    "Support answers on Twitter at @AWSSupport, usually within an hour",
    "GitHub 的状态账号 @githubstatus 会发故障通知",
    "B站官方号 @哔哩哔哩弹幕网 发了新公告",
    "follow @ESA on X for launch updates",
]

#: Kind: a public place's published address (a museum, a library, a hospital, a civic centre).
PUBLIC_PLACES = [
    "上海图书馆在淮海中路1555号",
    "国家体育场位于北京市朝阳区国家体育场南路1号",
    "北京协和医院东院：东城区帅府园1号",
    "深圳市民中心：福田区福中三路2012号",
    "The city library is at 2100 Grand Ave, open till 9",
]

#: Kind: a public figure's original name (原名/本名), a biography fact.
PUBLIC_FIGURES = ["金庸本名查良镛", "鲁迅原名周树人，浙江绍兴人"]

#: Kind: a key *file* path or a command with flags after a secret word (a how-to, not a value).
HOW_TO = [
    "私钥放在 /etc/ssl/private/server-2024.key，权限 600",
    "密钥文件路径 ~/.config/gcloud/application_default_credentials.json",
    "重置密码用 openssl passwd -6 生成哈希",
    "设置访问密码: htpasswd -c .htpasswd admin",
    "给私钥加口令：ssh-keygen -p -f ~/.ssh/id_rsa",
]


#: The same kinds about a person, or with a real value: still found.
STILL_FOUND = [
    ("I was diagnosed with type 2 diabetes, my A1c is 7.9%", "health"),
    ("我爸确诊高血压了，医生建议每天吃一片氨氯地平", "health"),
    ("她上个月查出乳腺癌，下周手术", "health"),
    ("my brother filed for Chapter 7 bankruptcy last month", "financial"),
    ("老婆是穆斯林，不吃猪肉", "protected"),
    ("I'm a union member, joined the teachers union in 2019", "protected"),
    ("张伟确诊抑郁症，在吃药", "health"),
    ("科普笔记：高血压\n我妈收缩压 160，医生让她吃药", "health"),
    ("password = 'Hunter2!x'", "secret"),
    ("pwd: Tr0ub4dor&3", "secret"),
    ("my kid has ADHD.", "health"),
    ("my instagram is @nadia.bakes", "handle"),
    ("加我抖音 @小鱼爱吃鱼", "handle"),
    ("follow me on X @jess_runs for race photos", "handle"),
    ("我家住在朝阳区建国路88号", "address"),
    ("她搬到了淮海中路1555号", "address"),
    ("快递寄到福田区福中三路2012号", "address"),
    ("我原名王建国，后来改的名", "name"),
    ("我爸本名李长根", "name"),
    ("WiFi密码: sunflower-garden -- 别外传", "secret"),
    ("# orders.yaml\n- card: \"4000 0566 5566 5556\"\n- card: \"5425 2334 3010 9903\"", "payment_card"),
]


#: Secret kinds of bench/HELDOUT.md round 10, each in phrasings of its own: 密码 typed by sound (蜜码, 秘码,
#: 米码) or a hurried English spelling; the value first ("用 X 登录", "X <- the wifi pass", "log in with X");
#: a key emoji as the label; a lock's digits after its name; an authenticator seed in groups of four;
#: a token as a URL's whole userinfo (a DSN, a git remote); "admin / value" with no log-in word.
SECRET_KINDS = [
    "公司VPN秘码是 Lz#8830qq 别外传🙏",
    "邮箱米码：sunny_2291",
    "wifi 密马 Gx72!home 😂",
    "paswrd: Kx7!mqp2",
    "the passowrd on the old NAS = Wq9!vv21",
    "log in with Rv8#tq2L tomorrow",
    "用 Jq3!pp90 解锁平板",
    "先拿 Tz9@kk41 登录后台再改",
    "Kp3!zz82x -> that's the office wifi pass",
    "🔐 NAS: Pq!882mm",
    "🔑 门禁 app：Hs7#qq29",
    "家里大门密码锁 60593080#",
    "保险柜 7731 别告诉别人",
    "两步验证的密钥（手动输入那个）MPKR LNSO VX6H ONR4",
    "Authenticator setup key: jbsw y3dp ehpk 3pxp kr2a",
    "2FA seed -> GEZD-GNBV-GY3T-QOJQ",
    "SENTRY_DSN=https://" + "b6585aa5dcc3bce0" + "5d5610d5af145496" + "@o702917.ingest.sentry.io/5352278",
    "git clone https://" + "Xk29fPq8LmZr4TwN" + "c7HbY3s6@git.internal.lan/team/app.git",
    "路由器后台 admin / Tiger.1383xx",
    "NAS 管理 admin/Blue#2291x",
    "db: sa / Str0ng!Pass22",
]


#: Their benign neighbours: the same words with no value after them.
SECRET_NEIGHBOURS = [
    "智能锁是 2024 年装的",
    "admin/settings/users 页面",
    "root / home / ubuntu 目录",
    "门禁系统在 1 楼",
    "OTP 长度是 6 位",
    "the two-factor setup uses TOTP with 30 second steps",
    "https://user@example.com/path",
    "log in with SSO, not a password",
    "用 VPN 连接内网",
]


#: Identifier and name kinds: a sole proprietor's unified social credit code (GB 32100-2015, second
#: character 2, check character valid; a company's code, 91..., is public); a full name after a relation or
#: role and a colon or dash; a Latin-script full name after 叫.
FOUND_AS = [
    ("个体户执照上的信用代码 92370202623495142P", "government_id"),
    ("my wife's sole proprietor credit code: 923502037096927530", "government_id"),
    ("landlord (the one in Leeds): Priya Raman", "name"),
    ("roommate from college - Jake Miller", "name"),
    ("babysitter on Fridays: Chloe Tan", "name"),
    ("新来的实习生叫 Daniel Okafor", "name"),
]


ID_AND_NAME_NEIGHBOURS = ["公司统一社会信用代码 91350100M000100Y43", "这个项目叫 Silver Lantern",
                          "project: Silver Lantern", "Status: Ready For Review", "the new service is called Blue Heron"]


#: Credentials in config lines: the syntax names the value (XML element or named property, a quoted JSON or
#: YAML key, a supplicant's psk, a keystore's passwords, Docker's auth), so a lower-case value counts too.
def _docker_auth(user: str, password: str) -> str:
    import base64
    return base64.b64encode(f"{user}:{password}".encode()).decode()


CONFIG_SECRETS = [
    "<settings><servers><server><id>releases</id><password>Tq8#vmw2Lp</password></server></servers></settings>",
    "<db-pass>rk82mmqz0b</db-pass>",
    '<property name="spring.datasource.password">Hx7!kd92Qa</property>',
    '<add key="SmtpPassword" value="jqlzpwhmtkvbqsce" />'.replace('key="SmtpPassword"', 'name="SmtpPassword"'),
    '{"mail": {"user": "ops", "pass": "wdxkqnbmrpsftjvo"}}',
    "smtp_pass: 'hzkq82mdla'".replace("smtp_pass:", "'smtp_pass':"),
    'network={\n    ssid="HomeNet"\n    psk="maple-tree-2291"\n}',
    "wpa_passphrase=Sunny#Porch77",
    "storePassword 'Kv82mxq1LpA' keyPassword 'Qz71nnb2WeR'",
    "keytool -list -keystore app.jks -storepass Pw82kkqz",
    '{"auths": {"registry.lan:5000": {"auth": "' + _docker_auth("ci-bot", "Zk81mmq!2x") + '"}}}',
    "wifi password is Hb7!22porch (SSID: Garden_5G)",
    "ssh'd into the jump host as ops7 with Vq9!ee21x and restarted nginx",
]


CONFIG_PLACEHOLDERS = [
    "<password>${env.NEXUS_PASS}</password>",
    '"password": "<your-password>"',
    '"pass": "%(SMTP_PASS)s"',
    'storePassword System.getenv("KS_PASS")',
    'psk="your-wifi-password"',
    '"auth": "' + "dXNlcm5hbWU=" + '"',
    "requirepass foobared",
    "redis.conf 里 requirepass 那行默认是注释掉的",
    "<password>changeme</password>",
]


#: A person's money as an amount (income, debt, support payments), religion by its believers or a
#: conversion, mixed ancestry, dissident politics, and a home left empty or a hidden key.
PERSONAL_FACTS = [
    ("Marcus earns about $9,200 a month before tax", "financial"),
    ("my ex gets £650 a month in child support", "financial"),
    ("她到手 1.6 万，房贷 8 千", "financial"),
    ("老爸还欠亲戚 12 万", "financial"),
    ("my cousin converted to Islam before the wedding", "protected"),
    ("Tom's parents are devout Mormons", "protected"),
    ("my neighbour's kid is half Japanese, half Brazilian", "protected"),
    ("她奶奶是虔诚的基督徒", "protected"),
    ("we're in Lisbon 3-17 May, the flat will be empty", "schedule"),
    ("Tuesdays the kids are alone at home until 6", "schedule"),
    ("spare key is under the doormat", "schedule"),
    ("春节我们回老家，钥匙藏在电表箱里", "schedule"),
    ("晚上就我妈一个人在家", "schedule"),
]


PERSONAL_FACT_NEIGHBOURS = [
    "the job ad says $140,000 base for a senior role",
    "服务器欠费 300 元，记得续费",
    "half time, half price at the stadium bar",
    "Islam 的英文怎么拼",
    "the staging cluster is empty after the migration",
]


#: Values first (a number then 是我QQ, a name then 是我表姐) and numbered cards after their name (医保卡号, 军官证号).
VALUE_FIRST = [
    ("88123456 就是我的微信", "handle"),
    ("2718281828 是我大号QQ，别加错", "handle"),
    ("王建国是我舅舅，明天来接", "name"),
    ("社保卡号 330106198803154519 在抽屉里", "government_id"),
    ("士兵证号 北字第0412877号", "government_id"),
]


VALUE_FIRST_NEIGHBOURS = ["这个是我表姐推荐的店", "张家界是我老家", "2024 是我入职的年份"]


# ---- the three checks, each over every kind above

@pytest.mark.parametrize("text", GENERAL_KNOWLEDGE + KNOWLEDGE_NOTES + CODE_VALUES + PUBLIC_ARMOUR + FIXTURES
                         + OFFICIAL_ACCOUNTS + PUBLIC_PLACES + PUBLIC_FIGURES + HOW_TO + SECRET_NEIGHBOURS
                         + ID_AND_NAME_NEIGHBOURS + CONFIG_PLACEHOLDERS + PERSONAL_FACT_NEIGHBOURS
                         + VALUE_FIRST_NEIGHBOURS)
def test_benign_kind_gives_no_finding(text):
    assert [(f.category, f.rule) for f in scan(text)] == []


@pytest.mark.parametrize("text,category", STILL_FOUND + FOUND_AS + PERSONAL_FACTS + VALUE_FIRST)
def test_private_kind_is_found_as_its_category(text, category):
    assert category in {f.category for f in scan(text)}


@pytest.mark.parametrize("text", SECRET_KINDS + CONFIG_SECRETS)
def test_secret_kind_is_found(text):
    assert "secret" in {f.category for f in scan(text)}
