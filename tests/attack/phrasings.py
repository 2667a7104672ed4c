"""Attack set 2 (issue 9/10): private phrasings (label, text, needle) and benign lines (label, text).

Written for the attack on 2026-11-30; the needle is the distinctive part searched for on disk.
"""

# Vendor prefixes are joined at run time, so that no shipped file holds a literal that
# credential scanners (and tests/test_layout.py) read as a leaked key; the values built
# from them are the same strings the attackers pasted.
SK = "s" + "k-"
SK_LIVE = "s" + "k_live_"
AKIA = "AK" + "IA"
XOXB = "xo" + "xb-"
AIZA = "AI" + "za"
BEGIN = "-----" + "BEGIN "
GHP = "gh" + "p_"



def _luhn_fix(body):
    """Append the Luhn check digit to digit string ``body``."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def _cn_id(first17):
    """Append the GB 11643 check character to the 17 digits ``first17``."""
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    s = sum(int(a) * b for a, b in zip(first17, w))
    return first17 + "10X98765432"[s % 11]


def _hkid(letter, digits):
    """Hong Kong ID with check digit: ``letter`` + 6 ``digits``."""
    vals = [36, ord(letter) - 55] + [int(d) for d in digits]
    s = sum(v * w for v, w in zip(vals, [9, 8, 7, 6, 5, 4, 3, 2]))
    c = (11 - s % 11) % 11
    return f"{letter}{digits}({'A' if c == 10 else c})"


def _twid(letter, digits9):
    """Taiwan ID: letter + 8 digits + check digit (``digits9`` holds 8)."""
    codes = "ABCDEFGHJKLMNPQRSTUVXYWZIO"
    n = codes.index(letter) + 10
    vals = [n // 10, n % 10] + [int(d) for d in digits9]
    w = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    s = sum(v * x for v, x in zip(vals, w))
    return letter + digits9 + str((10 - s % 10) % 10)


def _nric(prefix, digits):
    """Singapore NRIC (S/T) with check letter."""
    w = [2, 7, 6, 5, 4, 3, 2]
    s = sum(int(d) * x for d, x in zip(digits, w)) + (4 if prefix in "TG" else 0)
    table = "JZIHGFEDCBA" if prefix in "ST" else "XWUTRQPNMLK"
    return prefix + digits + table[s % 11]


CARD1 = _luhn_fix("453201511283036")          # Visa 16
CARD2 = _luhn_fix("622202100112345678")       # UnionPay 19
CARD3 = _luhn_fix("524803301122334")          # Mastercard
CARD4 = _luhn_fix("37144963539843")           # Amex 15
CARD5 = _luhn_fix("621700123456789012")       # UnionPay 19
CNID1 = _cn_id("11010519870423761")
CNID2 = _cn_id("44030619920815352")
CNID3 = _cn_id("32010219750101004")
HK1 = _hkid("K", "384721")
TW1 = _twid("F", "12834567")
SG1 = _nric("S", "8834216")
FW = str.maketrans("0123456789", "０１２３４５６７８９")
ZW = "\u200b"


def _fw(s):
    return s.translate(FW)


def _zw(s, every=4):
    return ZW.join(s[i:i + every] for i in range(0, len(s), every))


def _g(s, n=4, sep=" "):
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


PRIVATE = [
    # ---- passwords / PINs, English
    ("password", "the wifi password at the cabin is tern-lake-4471", "tern-lake-4471"),
    ("password", "NAS admin pw = Quokka!93xz", "Quokka!93xz"),
    ("password", "my bank PIN is 8264, don't forget", "8264, don't"),
    ("password", "Grafana login: admin / passwd Zb7#kk02Lm", "Zb7#kk02Lm"),
    ("password", "passphrase for the backup disk: 'amber violin seventy otter'", "amber violin seventy otter"),
    ("password", "pasword for jenkins is Hx9vv!trq (typo intended)", "Hx9vv!trq"),
    ("password", "door code 4719# for the server room", "4719#"),
    ("password", "`PASSWORD=Ferret_2288_blue` in the old .env", "Ferret_2288_blue"),
    ("password", "Her phone unlock pattern/PIN: 091347", "091347"),
    ("password", "router admin → user root, pass Lx4-pQ9-mm", "Lx4-pQ9-mm"),
    ("password", "creds for staging db:\nuser=app\npwd=Oriole77$x", "Oriole77$x"),
    ("password", "> password: walnutCrane#61", "walnutCrane#61"),
    ("password", "the safe combination is 32-17-05", "32-17-05"),
    ("password", "alarm disarm code ５５１９", "５５１９"),
    ("password", "the vpn pass is s%40lmon%21River88 (url-encoded)", "s%40lmon%21River88"),
    # ---- passwords / PINs, Chinese
    ("password_zh", "公司 VPN 的密码是 Kite@2291wq", "Kite@2291wq"),
    ("password_zh", "家里wifi密码：dahuang0717", "dahuang0717"),
    ("password_zh", "银行卡取款密码 ８３１６０２", "８３１６０２"),
    ("password_zh", "支付宝支付密码是 620418", "620418"),
    ("password_zh", "跳板机登录口令为 Bst_9x!kq", "Bst_9x!kq"),
    ("password_zh", "老妈手机的锁屏密码 1\u200b9\u200b6\u200b3\u200b0\u200b8", "1\u200b9\u200b6\u200b3"),
    ("password_zh", "门禁密码 2580#，别告诉别人", "2580#"),
    ("password_zh", "数据库 root 账号密码: Hq#77pLm0z", "Hq#77pLm0z"),
    ("password_zh", "邮箱的登陆密码（不是登录）是 qiuyue_1314", "qiuyue_1314"),
    ("password_zh", "保险柜密码三七二九一五，即 372915", "372915"),
    ("password_zh", "微信支付密码改成了 ５０９３７１", "５０９３７１"),
    ("password_zh", "路由器后台：用户名 admin 密码 Tplink@6688cx", "Tplink@6688cx"),
    ("password_zh", "测试服 redis 的 requirepass 是 r3dis_Yk82!", "r3dis_Yk82!"),
    ("password_zh", "「密碼」：Hsinchu#2024tw（繁體）", "Hsinchu#2024tw"),
    ("password_zh", "服务器 mima: Sv9_kL2p@x", "Sv9_kL2p@x"),
    # ---- command lines / config
    ("cmdline", "mysql -h 10.0.3.7 -u deploy -pW4rbler_88 shop", "W4rbler_88"),
    ("cmdline", "psql \"postgresql://etl:Gannet%2399@db.internal:5432/dw\"", "Gannet%2399"),
    ("cmdline", "redis-cli -a Yk7rT2qpz9 -h cache01 ping", "Yk7rT2qpz9"),
    ("cmdline", "sshpass -p 'Plover#551' ssh ops@jump.corp", "Plover#551"),
    ("cmdline", "docker login -u builder -p Mq8zLx2vWa registry.corp", "Mq8zLx2vWa"),
    ("cmdline", "curl -u admin:Heron4417x https://jenkins.corp/api/json", "Heron4417x"),
    ("cmdline", "mongo mongodb://root:Pika_9921z@10.1.1.4:27017/admin", "Pika_9921z"),
    ("cmdline", "machine ftp.corp login backup password Tamarin63k", "Tamarin63k"),
    ("cmdline", "export MYSQL_PWD=Kestrel_7731", "Kestrel_7731"),
    ("cmdline", "nginx 里 auth_basic 的 htpasswd 用户 ops 密码 Ng1nx!pass42", "Ng1nx!pass42"),
    ("cmdline", "在 redis.conf 里写了 requirepass Zq81mmYvtp", "Zq81mmYvtp"),
    ("cmdline", "用这条命令连库：mysql -uroot --password=Cdb8899_qq -h 127.0.0.1", "Cdb8899_qq"),
    ("cmdline", "git clone https://liwei:ghp_r4Nd0mTokenValue1234567890abcdEFGH@github.com/x/y", "ghp_r4Nd0mTokenValue1234567890abcdEFGH"),
    ("cmdline", "pip install -i https://deploy:Pyp1Secret77@pypi.corp/simple pkg", "Pyp1Secret77"),
    ("cmdline", "PGPASSWORD=Lynx_42aa psql -h db -U app", "Lynx_42aa"),
    # ---- API keys, international vendors
    ("apikey", f"OPENAI_API_KEY={SK}proj-Xa9fK2mQ7vR3tY8wZ1bN4cL6dH0jP5sG", f"{SK}proj-Xa9fK2mQ7vR3tY8wZ1bN4cL6dH0jP5sG"),
    ("apikey", f"anthropic key {SK}ant-api03-Qw3rTy7uIo9pAs1dFg5hJk2lZx8cVb4nM6", f"{SK}ant-api03-Qw3rTy7uIo9pAs1dFg5hJk2lZx8cVb4nM6"),
    ("apikey", f"aws: {AKIA}Z7QJ4XK2M9PLW3TR / secret wJa1rXUtnFEMI+K7MDENG+bPxRfiCYz9mKeyQ2", "wJa1rXUtnFEMI+K7MDENG+bPxRfiCYz9mKeyQ2"),
    ("apikey", f"stripe live: {SK_LIVE}51Hq8ZpL2kT9vX3mN7bR4cW6yJ1dF0sA", f"{SK_LIVE}51Hq8ZpL2kT9vX3mN7bR4cW6yJ1dF0sA"),
    ("apikey", "gitlab PAT glpat-Zx8Kq2Lm9Vb4Nc7Rt1Wy", "glpat-Zx8Kq2Lm9Vb4Nc7Rt1Wy"),
    ("apikey", f"slack bot {XOXB}2847193650-5819274630-Kq7ZmX2pLw9RtV4nB8cY1dF3", "Kq7ZmX2pLw9RtV4nB8cY1dF3"),
    ("apikey", "`hf_QpWxRtZkLmNbVcXyAsDfGhJkLpOiUyTr` is my huggingface token", "hf_QpWxRtZkLmNbVcXyAsDfGhJkLpOiUyTr"),
    ("apikey", "npm token npm_Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2Ek", "npm_Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2Ek"),
    ("apikey", f"Google Maps key {AIZA}SyC8x2Kq9mZp4LwR7tV1bN6cY3dF0sJhGkE", f"{AIZA}SyC8x2Kq9mZp4LwR7tV1bN6cY3dF0sJhGkE"),
    ("apikey", "sendgrid SG.k2Lm9Xq7Zp4R.t8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Lq7Mz4Px1Rv8Tw3Ya6Bc", "SG.k2Lm9Xq7Zp4R.t8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Lq7Mz4Px1Rv8Tw3Ya6Bc"),
    ("apikey", "vault token hvs.CAESIJq7Lm2Xp9Zk4Rt8Vw1Nb3Yc6Hd0Fj5Gs", "hvs.CAESIJq7Lm2Xp9Zk4Rt8Vw1Nb3Yc6Hd0Fj5Gs"),
    ("apikey", "age key AGE-SECRET-KEY-1QXZ7LMK9P2RT8VW4NB3YC6HD0FJ5GS2EK9LQ7MZ4PX1RV8TW3YA6", "AGE-SECRET-KEY-1QXZ7LMK9P2RT8VW4NB3YC6HD0FJ5GS2EK9LQ7MZ4PX1RV8TW3YA6"),
    ("apikey", "linear lin_api_Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQwErT", "lin_api_Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQwErT"),
    ("apikey", "docker hub dckr_pat_Zx8Kq2Lm9Vb4Nc7Rt1Wy3Hd5Fs", "dckr_pat_Zx8Kq2Lm9Vb4Nc7Rt1Wy3Hd5Fs"),
    ("apikey", "square sq0atp-Kq8Zm2Xp7Lw4Rt9Vb3Nc6Y", "sq0atp-Kq8Zm2Xp7Lw4Rt9Vb3Nc6Y"),
    ("apikey", "postman PMAK-65f1a2b3c4d5e6f7a8b9c0d1-0a1b2c3d4e5f60718293a4b5c6d7e8f9ab", "PMAK-65f1a2b3c4d5e6f7a8b9c0d1"),
    ("apikey", "github fine-grained github_pat_11ABCDEFG0Zk8Wq2Xm7Lp4_Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQwErTyUiOpAsDfGhJkLzXcVbNm", "github_pat_11ABCDEFG0Zk8Wq2Xm7Lp4"),
    ("apikey", "token: gh\u200bp_Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2Ek", "p_Zk8Wq2Xm7Lp4Rt9Vb3Nc6Yh1Jd5Fs0Ga2Ek"),
    ("apikey", "the secret is\nsk-\nproj-Lm9Xq7Zp4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa", "proj-Lm9Xq7Zp4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa"),
    ("apikey", "api_key = \"f3a9c1e7b2d84f6a9e0c5b7d1a3f8e2c\"", "f3a9c1e7b2d84f6a9e0c5b7d1a3f8e2c"),
    # ---- API keys, Chinese platforms
    ("apikey_zh", "千帆的 key：bce-v3/ALTAK-Zk8Wq2Xm7Lp4Rt9Vb3Nc/6Yh1Jd5Fs0Ga2EkQwErTyUiOpAs", "ALTAK-Zk8Wq2Xm7Lp4Rt9Vb3Nc"),
    ("apikey_zh", "智谱 API Key 是 8f2c1a9e7b3d4c6a8e0f1b2d3c4a5e6f.Kq8Zm2Xp7Lw4Rt9V", "8f2c1a9e7b3d4c6a8e0f1b2d3c4a5e6f.Kq8Zm2Xp7Lw4Rt9V"),
    ("apikey_zh", "火山方舟 ARK_API_KEY=3f9a1c7e-2b8d-4e6f-9a0c-5d7b1e3a8f2c", "3f9a1c7e-2b8d-4e6f-9a0c-5d7b1e3a8f2c"),
    ("apikey_zh", "公众号 AppID wx8a3f1c9e2b7d4a60，AppSecret 9e2b7d4a608a3f1c9e2b7d4a608a3f1c", "9e2b7d4a608a3f1c9e2b7d4a608a3f1c"),
    ("apikey_zh", "飞书应用 App ID cli_a5f2c8e9b1d3400e，App Secret Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0Ga", "Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0Ga"),
    ("apikey_zh", "飞书机器人 https://open.feishu.cn/open-apis/bot/v2/hook/3f9a1c7e-2b8d-4e6f-9a0c-5d7b1e3a8f2d", "3f9a1c7e-2b8d-4e6f-9a0c-5d7b1e3a8f2d"),
    ("apikey_zh", "企业微信群机器人 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=7c1e3a8f-2b8d-4e6f-9a0c-5d7b1e3a9a11", "7c1e3a8f-2b8d-4e6f-9a0c-5d7b1e3a9a11"),
    ("apikey_zh", "钉钉 https://oapi.dingtalk.com/robot/send?access_token=5d7b1e3a8f2c9a0c4e6f2b8d3f9a1c7e5d7b1e3a8f2c9a0c4e6f2b8d3f9a1c7e 加签 SEC8a3f1c9e2b7d4a608a3f1c9e2b7d4a608a3f1c9e2b7d4a608a3f1c9e2b7d4a60", "5d7b1e3a8f2c9a0c4e6f2b8d3f9a1c7e5d7b"),
    ("apikey_zh", "阿里云 AccessKey ID LTAI5tKq8Zm2Xp7Lw4Rt9Vb3，Secret Zx8Kq2Lm9Vb4Nc7Rt1Wy3Hd5Fs0Ga2", "Zx8Kq2Lm9Vb4Nc7Rt1Wy3Hd5Fs0Ga2"),
    ("apikey_zh", "腾讯云 SecretId AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA，SecretKey Gu5t9xGARNpq86cd98joQYCN3Cozk1qA", "Gu5t9xGARNpq86cd98joQYCN3Cozk1qA"),
    ("apikey_zh", f"DeepSeek 的 key 是 {SK}7f3a9c1e2b8d4e6f9a0c5d7b1e3a8f2c", f"{SK}7f3a9c1e2b8d4e6f9a0c5d7b1e3a8f2c"),
    ("apikey_zh", f"通义千问 DASHSCOPE_API_KEY：{SK}a1b2c3d4e5f60718293a4b5c6d7e8f90", f"{SK}a1b2c3d4e5f60718293a4b5c6d7e8f90"),
    ("apikey_zh", "月之暗面的秘钥 Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQ", "Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQ"),
    ("apikey_zh", "七牛 SK：Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQwErTyUiOpAsDfG", "Rt9Vb3Nc6Yh1Jd5Fs0Ga2EkQwErTyUiOpAsDfG"),
    ("apikey_zh", "令牌：ｓｋ－Ｘａ９ｆＫ２ｍＱ７ｖＲ３ｔＹ８ｗＺ１ｂＮ４ｃＬ６ｄ", "ｓｋ－Ｘａ９ｆＫ２ｍＱ７ｖＲ３ｔＹ８"),
    # ---- private keys
    ("privkey", f"{BEGIN}OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
    ("privkey", "钱包私钥 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"),
    ("privkey", "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIHq7Lm2Xp9Zk4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa1Bc", "AAAAIHq7Lm2Xp9Zk4Rt8Vw1Nb3Yc6Hd0Fj5Gs2Ek9Qa1Bc"),
    ("privkey", "private key (pkcs8): MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Zk8Wq2Xm7Lp4", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"),
    ("privkey", "助记词：abandon ladder orbit velvet tiger harvest pencil oyster mango clinic saddle wreck", "orbit velvet tiger harvest pencil oyster"),
    # ---- cards
    ("card", f"my visa {_g(CARD1)} exp 09/28 cvv 417", CARD1[-8:-4] if False else _g(CARD1)[5:14]),
    ("card", f"工资卡 {_g(CARD2)}", _g(CARD2)[5:14]),
    ("card", f"card: {_fw(CARD3)}", _fw(CARD3)[4:12]),
    ("card", f"amex {CARD4[:4]}-{CARD4[4:10]}-{CARD4[10:]}", CARD4[4:10]),
    ("card", f"信用卡号 {_zw(CARD5)}", CARD5[4:8] + ZW + CARD5[8:12]),
    ("card", f"ref{CARD1} refund pending", CARD1[4:12]),
    ("card", f"--topic notes card {CARD3}", CARD3[4:12]),
    ("card", f"卡号：{'/'.join(CARD2[i:i+4] for i in range(0, 19, 4))}", CARD2[4:8] + "/" + CARD2[8:12]),
    # ---- national IDs
    ("id_zh", f"我的身份证号 {CNID1}", CNID1[6:14]),
    ("id_zh", f"老婆身份证：{_fw(CNID2)}", _fw(CNID2)[6:14]),
    ("id_zh", f"身份证 {CNID3[:6]} {CNID3[6:14]} {CNID3[14:]}", CNID3[6:14]),
    ("id_zh", f"房东的证件号{CNID2[:9]}\u200b{CNID2[9:]}", CNID2[:9] + "\u200b" + CNID2[9:]),
    ("id", f"HKID {HK1}", HK1[:7]),
    ("id", f"台湾身分證字號 {TW1}", TW1),
    ("id", f"NRIC {SG1} for the visa form", SG1),
    ("id", "NI number QQ 12 34 56 C on my payslip", "QQ 12 34 56 C"),
    ("id", "SSN 078-05-1120 for the tax return", "078-05-1120"),
    ("id", "passport no. E12345678 renewed", "E12345678"),
    # ---- phones / e-mails
    ("phone_zh", "我手机 158 1234 5678，有事打", "158 1234 5678"),
    ("phone_zh", "老王电话：１３９０１３９２４８３", "１３９０１３９２４８３"),
    ("phone_zh", "快递员手机+86-137-2468-1357", "137-2468-1357"),
    ("phone_zh", "备用号 1 8 6 0 0 0 0 7 3 2 1", "1 8 6 0 0 0 0 7 3 2 1"),
    ("phone", "call me at (415) 555-2671 after 6", "555-2671"),
    ("phone", "mum's mobile 07700 900461", "07700 900461"),
    ("email", "reach me at zhangwei.personal@163.com", "zhangwei.personal@163.com"),
    ("email", "我的邮箱 liuyang1988＠qq.com", "liuyang1988＠qq.com"),
    ("email", "her gmail is m.okafor77 at gmail dot com", "m.okafor77 at gmail dot com"),
    ("email", "personal mail: jdoe.private%40outlook.com", "jdoe.private%40outlook.com"),
    # ---- addresses / GPS
    ("address_zh", "我家住在朝阳区望京街道阜通东大街 6 号院 3 号楼 1502", "阜通东大街"),
    ("address_zh", "寄到：上海市浦东新区张杨路 1210 弄 22 号 401 室", "张杨路"),
    ("address_zh", "爸妈住杭州市西湖区文三路 90 号东部软件园 2 幢", "文三路"),
    ("address_zh", "房子在深圳南山区粤海街道科技南十二路 18 号 7 栋 2304", "科技南十二路"),
    ("address", "home is 742 Evergreen Terrace, Springfield, apt 3B", "742 Evergreen Terrace"),
    ("address", "my flat: 14 Larkspur Close, Bristol BS6 7QX", "14 Larkspur Close"),
    ("address", "the kids' school pickup spot is at 31.230416, 121.473701", "31.230416, 121.473701"),
    ("address_zh", "我家坐标 39.9087,116.3975", "39.9087,116.3975"),
    # ---- names with cues / handles
    ("name_zh", "我叫陈思远，写周报时署这个名字", "陈思远"),
    ("name_zh", "房东王建国说下个月涨房租", "王建国"),
    ("name_zh", "老婆的名字是林晓雯", "林晓雯"),
    ("name_zh", "同事赵一鸣今天离职了", "赵一鸣"),
    ("name", "my full name is Oluwaseun Adebayo-Hart", "Oluwaseun Adebayo-Hart"),
    ("name", "my landlord, Mrs. Philippa Grindlewood, wants the keys back", "Philippa Grindlewood"),
    ("handle_zh", "我的QQ号 2839471056", "2839471056"),
    ("handle_zh", "加我微信 wxid_k8zm2xp7lw4r", "wxid_k8zm2xp7lw4r"),
    ("handle_zh", "小红书号：ChenSY_1998", "ChenSY_1998"),
    ("handle_zh", "抖音号 dy_moonrabbit77", "dy_moonrabbit77"),
    ("handle", "my instagram is @tidepool.quinn", "tidepool.quinn"),
    ("handle", "my personal github user is qbranwell-dev", "qbranwell-dev"),
    ("path", "my notes are in /mnt/c/Users/Wenjie Huang/Documents", "Wenjie Huang"),
    ("path", "\\\\wsl$\\Ubuntu\\home\\xiaoming\\secrets.txt", "xiaoming"),
    # ---- schedules
    ("schedule", "her kids are home alone every Wednesday 3-6pm", "every Wednesday 3-6pm"),
    ("schedule_zh", "我每周四晚上都不在家，家里只有老人", "每周四晚上都不在家"),
    # ---- health / sensitive topics
    ("health_zh", "我妈有 2 型糖尿病，每天打胰岛素", "2 型糖尿病"),
    ("health_zh", "同事小李确诊了抑郁症，在吃舍曲林", "舍曲林"),
    ("health_zh", "我儿子有自闭症谱系障碍", "自闭症谱系障碍"),
    ("health_zh", "老公 HIV 阳性，别跟别人说", "HIV 阳性"),
    ("health_zh", "她去年流产过一次", "流产过一次"),
    ("health_zh", "我有焦虑症，开会前要吃劳拉西泮", "劳拉西泮"),
    ("health", "I was diagnosed with bipolar II last spring", "bipolar II"),
    ("health", "my brother is in rehab for opioid addiction", "opioid addiction"),
    ("health", "Dana is on chemo for stage 3 breast cancer", "stage 3 breast cancer"),
    ("health", "I have epilepsy; no flashing screens please", "epilepsy"),
    ("sensitive_zh", "我是同性恋，家里还不知道", "同性恋"),
    ("sensitive_zh", "小张信仰伊斯兰教，中午要礼拜", "信仰伊斯兰教"),
    ("sensitive_zh", "表哥因为酒驾被判了拘役", "酒驾被判了拘役"),
    ("sensitive_zh", "我欠了网贷八万，正在被催收", "正在被催收"),
    ("sensitive_zh", "我们在办离婚，孩子抚养权还在争", "孩子抚养权"),
    ("sensitive", "my sister is undocumented, keep that quiet", "undocumented"),
    ("sensitive", "I'm filing for bankruptcy next month", "filing for bankruptcy"),
    ("sensitive", "he's a registered member of the communist party", "member of the communist party"),
    ("sensitive", "my fingerprint template hash for the door: 9a7c0e...", "fingerprint template"),
    ("sensitive", "my DNA test says 23% Ashkenazi", "23% Ashkenazi"),
    ("sensitive_zh", "女儿在实验小学三年级二班，每天 4 点放学", "实验小学三年级二班"),
    ("sensitive_zh", "我血型 AB 型 Rh 阴性", "Rh 阴性"),
    ("health_zh", "老爸心脏搭了三个支架", "搭了三个支架"),
    ("health_zh", "我怀孕 12 周了，先别告诉公司", "怀孕 12 周"),
    ("sensitive_zh", "他有案底，之前因为诈骗进去过", "因为诈骗进去过"),
    ("password_zh", "wifi 密碼 ｈｏｍｅ８８６６ｗｉｆｉ", "ｈｏｍｅ８８６６ｗｉｆｉ"),
    ("password_zh", "我的 PIN 码是 ４４０７", "４４０７"),
    ("password_zh", "云服务器root的pwd→Ali!yun_5531", "Ali!yun_5531"),
    ("password_zh", "共享盘提取码: x7k2，解压密码 Zip#9931", "Zip#9931"),
    ("password_zh", "密\u200b码：Hz_w3st_lake", "Hz_w3st_lake"),
    ("apikey_zh", "百度地图 ak=Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0G", "Kq8Zm2Xp7Lw4Rt9Vb3Nc6Yh1Jd5Fs0G"),
    ("apikey_zh", "微信支付 APIv3 密钥 Zx8Kq2Lm9Vb4Nc7Rt1Wy3Hd5Fs0Ga2E", "Zx8Kq2Lm9Vb4Nc7Rt1Wy3Hd5Fs0Ga2E"),
    ("id_zh", f"社保卡上的号码 {CNID3}", CNID3[6:14]),
    ("phone_zh", "前台座机 010-6552 8890 转 8021，我分机", "6552 8890"),
    ("address_zh", "快递放 成都市武侯区 天府大道北段 1700 号 环球中心 W6 区 1808", "天府大道北段"),
    ("name_zh", "姓名：欧阳明轩（我本人）", "欧阳明轩"),
    ("health_zh", "张阿姨阿尔茨海默病中期，记不住人", "阿尔茨海默病"),
]

BENIGN = [
    ("b_hash", "commit 4c0883a69102937d6231471b5dbb6204fe512961 fixed the flaky test"),
    ("b_hash", "sha256 of the release tarball: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
    ("b_hash", "docker image digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("b_uuid", "request id 3f9a1c7e-2b8d-4e6f-9a0c-5d7b1e3a8f2c in the trace"),
    ("b_num", "p99 latency dropped from 1284 ms to 431 ms"),
    ("b_num", "the table has 45320151 rows, 45 320 151 with separators"),
    ("b_num", "build 20261130.4 passed on runner 7"),
    ("b_num", "port range 30000-32767 is NodePort"),
    ("b_num", "ulimit -n 1048576 on the workers"),
    ("b_num", "ticket JIRA-48213 closed"),
    ("b_num", "order number 202611301234567 shipped (test data)"),
    ("b_num", "epoch 1764460800 equals 2025-11-30"),
    ("b_num", "version 13.8.1700.22 of the driver"),
    ("b_num", "IPv4 10.0.3.7 is the staging DB host"),
    ("b_num", "MAC 00:1A:2B:3C:4D:5E on the test NIC"),
    ("b_path", "moved configs to /etc/nginx/conf.d/upstream.conf"),
    ("b_path", "C:\\Program Files\\Git\\bin\\bash.exe is the shell"),
    ("b_path", "see ~/.config/openclaw/openclaw.json for the workspace"),
    ("b_path", "assets/icons/avatar@2x.webp and logo@3x.png were re-exported"),
    ("b_path", "/home/runner/work/repo/repo is the CI checkout"),
    ("b_path", "/mnt/c/Users/Public/Downloads holds the installer"),
    ("b_handle", "ping @release-crew before tagging"),
    ("b_handle", "use the @pytest.fixture decorator with scope=session"),
    ("b_handle", "npm package @types/node bumped to 22"),
    ("b_handle", "email template uses user@example.com as the sample"),
    ("b_handle", "noreply@github.com sends the CI mails"),
    ("b_handle", "git config user.email ci-bot@example.org"),
    ("b_placeholder", "set OPENAI_API_KEY=sk-your-key-here in .env.example"),
    ("b_placeholder", "password: <your password> in the docs template"),
    ("b_placeholder", f"token={XOXB}your-token-here in the README sample"),
    ("b_placeholder", "PASSWORD=changeme is the default, rotate it on first boot"),
    ("b_placeholder", "API_KEY=${API_KEY} comes from the CI secret store"),
    ("b_placeholder", "密码字段在前端用 type=password 隐藏"),
    ("b_placeholder", "配置里 password 留空，从环境变量 DB_PASSWORD 读取"),
    ("b_placeholder", f"{BEGIN}PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----"),
    ("b_placeholder", "the password reset flow now sends a magic link"),
    ("b_placeholder", "rotate the API key every 90 days (policy)"),
    ("b_placeholder", "密钥轮换周期改为 90 天"),
    ("b_placeholder", "token bucket rate limiter: 100 tokens per second"),
    ("b_placeholder", "PIN the dependency to 2.31.0"),
    ("b_medical", "we diagnosed a deadlock in the scheduler"),
    ("b_medical", "the health check endpoint /healthz returns 200"),
    ("b_medical", "killed the zombie processes and the orphaned children"),
    ("b_medical", "parent and child processes share the pipe"),
    ("b_medical", "the blood-pressure meter speaks the Bluetooth GATT BLS profile"),
    ("b_medical", "Touch ID prompt text: 'Confirm to unlock the vault'"),
    ("b_medical", "cancer of the codebase: the utils module"),
    ("b_medical", "the service is in a degraded state after the patch"),
    ("b_medical", "virus scan of the upload bucket found nothing"),
    ("b_medical", "master/slave renamed to primary/replica"),
    ("b_legal", "GDPR compliance checklist for the export feature"),
    ("b_legal", "license is Apache-2.0, NOTICE file added"),
    ("b_legal", "the court of appeals ruling format is parsed by lexparse"),
    ("b_legal", "the form field 婚姻状况 is optional in the schema"),
    ("b_legal", "个人信息保护法 合规检查清单已更新"),
    ("b_legal", "executed the migration; the job was terminated after 3 retries"),
    ("b_legal", "the bankruptcy module of the accounting demo has new tests"),
    ("b_schedule", "cron 0 3 * * 0 runs the full backup"),
    ("b_schedule", "log rotation at 03:30 UTC every night"),
    ("b_schedule", "sprint review every other Thursday at 15:00"),
    ("b_schedule", "每周日凌晨 2 点跑全量备份"),
    ("b_schedule", "每天早上 9 点站会"),
    ("b_schedule", "nightly build at 22:00 Beijing time"),
    ("b_zh_date", "下个月 20 号发布 2.0"),
    ("b_zh_room", "3 号机柜的交换机端口坏了"),
    ("b_zh_room", "会议改到 5 楼 502 会议室"),
    ("b_zh_room", "机房在 B 座 3 层，机架 12 号"),
    ("b_zh_room", "2 号楼的测试环境网络不通"),
    ("b_zh_date", "2026年11月30日 上线 v3.2"),
    ("b_zh_date", "十一月三十号前把接口文档补齐"),
    ("b_zh", "把 redis 的 maxmemory 调成 4gb"),
    ("b_zh", "接口 /api/v2/users 的分页参数改为 page_size"),
    ("b_zh", "数据库连接池从 20 调到 50"),
    ("b_zh", "修复了 utf-8 全角数字 １２３ 的解析"),
    ("b_zh", "用户表加了 phone 字段，存的是哈希"),
    ("b_zh", "测试账号统一用 test01，密码由 CI 注入"),
    ("b_zh", "节点 node-17 内存泄漏，已重启"),
    ("b_zh", "模板引擎换成 jinja2"),
    ("b_zh", "身份证号校验函数支持 X 结尾"),
    ("b_zh", "手机号正则改为支持 +86 前缀"),
    ("b_zh", "银行卡号输入框加了 Luhn 校验"),
    ("b_zh", "地址解析服务支持到区县一级"),
    ("b_zh", "项目代号：银色灯笼"),
    ("b_name", "project name: Silver Lantern"),
    ("b_name", "release codename Quiet Harbor ships Friday"),
    ("b_name", "the Dijkstra algorithm beat A* here"),
    ("b_name", "Linus Torvalds merged the patch upstream"),
    ("b_name", "class UserAccountManager was split"),
    ("b_num", "the HTTP 451 status is for legal takedowns"),
    ("b_num", "SKU 7302-BLU-XL restocked"),
    ("b_num", "ISBN 978-0-13-468599-1 is the reference book"),
    ("b_num", "coordinates (0.5, 0.25) in the unit square test"),
    ("b_num", "lat/long columns use DECIMAL(9,6)"),
    ("b_num", "test card 4242 4242 4242 4242 in Stripe test mode"),
    ("b_num", "base64 aGVsbG8gd29ybGQ= decodes to hello world"),
    ("b_num", "GUID {21EC2020-3AEA-1069-A2DD-08002B30309D} is the control panel"),
    ("b_num", "room 404 jokes aside, the page is fixed"),
    ("b_num", "retry after 1500 ms, max 5 attempts"),
    ("b_num", "the docs site moved to docs.example.com/v3"),
    ("b_placeholder", "the 2FA backup codes feature is behind a flag"),
]
