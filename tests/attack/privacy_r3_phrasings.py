"""Attack round 3 on the privacy detector (issue 9): 200 private and 100 benign phrasings.

Written by an outside attacker on 2026-11-30 before reading the detector's rules or corpus.
PRIVATE holds (kind, text, needle): the needle is the part searched for on disk. BENIGN holds
(kind, text). Every secret-shaped value is built at run time from parts and a seeded generator,
so that no literal in this file reads as a leaked credential (tests/test_layout.py).
"""
import random
import string

from phrasings import _luhn_fix, _cn_id, _hkid, _twid, _nric  # check-digit helpers only

_R = random.Random(20261130)
AN = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = AN + "+/"
FW = str.maketrans("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@.",
                   "０１２３４５６７８９ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ＠．")
ZW = "\u200b"


def r(n, alpha=AN):
    """``n`` seeded random characters from ``alpha``."""
    return "".join(_R.choice(alpha) for _ in range(n))


def fw(s):
    return s.translate(FW)


def _mod97_iban(cc, bban):
    """IBAN with valid ISO 13616 check digits for country ``cc`` and ``bban``."""
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    return cc + f"{98 - int(num) % 97:02d}" + bban


def _nino():
    return "Q" + "R" + "".join(str(_R.randrange(10)) for _ in range(6)) + "C"


P = []  # (kind, text, needle)


def add(kind, text, needle):
    P.append((kind, text, needle))


# ---- password: chat phrasing, both languages (20)
for tmpl, v in [
    ("公司VPN密码是{}，别忘了", "Qy7!" + r(6)),
    ("wifi密码：{}", "home" + r(5) + "88"),
    ("我的支付宝支付密码 {}", "9" + r(5, "0123456789")),
    ("银行卡取款密码是{}", r(6, "0123456789")),
    ("老婆手机锁屏密码{}", r(6, "0123456789")),
    ("The admin password for grafana is {}", "Gr4f" + r(7)),
    ("pw for the shared gmail: {}", r(10)),
    ("my ATM pin = {}", r(4, "0123456789")),
    ("door code for the office is {} btw", r(4, "0123456789") + "#"),
    ("记一下：服务器root口令 {}", "R00t" + r(6)),
    ("邮箱登录密码改成了{}", r(3) + "@" + r(5)),
    ("登陆密码:{} 用户名:zhangwei88", "Zw" + r(8)),
    ("the passphrase for my gpg key is '{}'", "correct-" + r(5, string.ascii_lowercase) + "-battery"),
    ("门禁密码{}，周末也能进", r(6, "0123456789")),
    ("保险箱的开锁码是 {}", r(6, "0123456789")),
    ("iCloud pwd {} (don't share)", r(11)),
    ("密码 {} 是淘宝的", r(4, string.ascii_lowercase) + r(4, "0123456789")),
    ("the router login is admin / {}", "tp" + r(8)),
    ("Steam account password: {} — changed yesterday", r(12)),
    ("数据库密码我设成了 {} 了", "Db_" + r(9)),
]:
    add("password", tmpl.format(v), v)

# ---- PIN / codes in full-width or with zero-width (6)
for tmpl, v in [
    ("我的银行卡密码是{}", fw("3" + r(5, "0123456789"))),
    ("手机PIN码：{}", fw(r(4, "0123456789"))),
    ("信用卡查询密码 {}", "7" + ZW + r(2, "0123456789") + ZW + r(3, "0123456789")),
    ("password：{}", fw("Abc" + r(6, string.ascii_lowercase + string.digits))),
    ("Wi-Fi 密码　{}", "sun" + r(7)),
    ("支付密码是　{}", r(6, "0123456789")),
]:
    add("password_obfuscated", tmpl.format(v), v)

# ---- credentials on command lines and in config (16)
for tmpl, v in [
    ("mysql -h 10.0.3.7 -u app -p{} shop", "Ms" + r(9)),
    ("psql \"postgresql://app:{}@db.internal:5432/prod\"", r(14)),
    ("redis-cli -h cache01 -a {} ping", r(16)),
    ("docker login -u deploy -p {} registry.corp.cn", r(18)),
    ("sshpass -p '{}' ssh root@172.16.8.4", "Ssh" + r(8)),
    ("mongodb://admin:{}@mongo1:27017/?authSource=admin", r(12)),
    ("curl -u alice:{} https://jenkins.corp.cn/api/json", r(12)),
    ("export DB_PASSWORD={}", r(15)),
    ("requirepass {}", r(20)),
    ("machine git.corp.cn login deploy password {}", r(16)),
    ("spring.datasource.password={}", "Sp" + r(12)),
    ("PGPASSWORD={} pg_dump -U app shop > dump.sql", r(13)),
    ("mysqldump -uroot --password={} --all-databases", r(12)),
    ("配置文件里 password: \"{}\" 别提交", r(14)),
    ("smtp_pass = {}  # 腾讯企业邮", r(16)),
    ("rsync --password-file=<(echo {}) rsync://backup@nas/home", r(12)),
]:
    add("credential_cmd", tmpl.format(v), v)

# ---- vendor tokens (20)
_tokens = [
    ("OpenAI key " + "s" + "k-proj-{}", r(48)),
    ("GitHub token " + "gh" + "p_{}", r(36)),
    ("export ANTHROPIC_API_KEY=" + "s" + "k-ant-api03-{}", r(80, AN + "-_")),
    ("gitlab PAT " + "gl" + "pat-{}", r(20)),
    ("stripe " + "r" + "k_live_{}", r(30)),
    ("HF_TOKEN=" + "h" + "f_{}", r(34)),
    ("npm token " + "np" + "m_{}", r(36)),
    ("vault token " + "hv" + "s.{}", r(24)),
    ("AGE key " + "AGE-SECRET-" + "KEY-1{}", r(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")),
    ("Slack bot " + "xo" + "xb-{}", "1234567890-" + r(24)),
    ("百度千帆 " + "bce-v3/" + "ALTAK-{}", r(20) + "/" + r(40, HEX)),
    ("智谱 API key: {}", r(32, HEX) + "." + r(16)),
    ("火山方舟 ARK_API_KEY={}", r(8, HEX) + "-" + r(4, HEX) + "-" + r(4, HEX) + "-" + r(4, HEX) + "-" + r(12, HEX)),
    ("飞书机器人 webhook https://open.feishu.cn/open-apis/bot/v2/hook/{}", r(8, HEX) + "-" + r(4, HEX) + "-" + r(4, HEX) + "-" + r(4, HEX) + "-" + r(12, HEX)),
    ("企业微信群机器人 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={}", r(8, HEX) + "-" + r(4, HEX) + "-" + r(4, HEX) + "-" + r(4, HEX) + "-" + r(12, HEX)),
    ("钉钉 https://oapi.dingtalk.com/robot/send?access_token={}", r(64, HEX)),
    ("Google Maps key " + "AI" + "za{}", r(35, AN + "-_")),
    ("阿里云 AccessKey ID " + "LTAI" + "{}", r(20)),
]
for tmpl, v in _tokens:
    add("vendor_token", tmpl.format(v), v)
_wx = r(16, HEX)
_wxs = r(32, HEX)
add("vendor_token", f"公众号 AppID wx{_wx} AppSecret {_wxs}", _wxs)
_ak = "AK" + "IA" + r(16, string.ascii_uppercase + "234567")
_sk = r(40, AN + "/+")
add("vendor_token", f"aws_access_key_id = {_ak}\naws_secret_access_key = {_sk}", _sk)
_tencent = "AKID" + r(32)
add("vendor_token", f"腾讯云 SecretId {_tencent}", _tencent)
_feishu = r(32)
add("vendor_token", f"飞书应用 app_id cli_{r(16, HEX)} app_secret {_feishu}", _feishu)

# ---- high-entropy next to a key word (10)
for tmpl, v in [
    ("新的密钥 {}", r(40)),
    ("秘钥：{}", r(32)),
    ("访问令牌是 {}", r(44)),
    ("口令 {}", r(24)),
    ("signing secret {}", r(32, HEX)),
    ("API-Key: {}", r(40)),
    ("client_secret={}", r(36)),
    ("x-api-key {}", r(28)),
    ("Bearer {}", r(60, AN + "-_.")),
    ("token: {} (prod)", r(48)),
]:
    add("keyword_entropy", tmpl.format(v), v)

# ---- private keys outside PEM (8)
_pk8 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + r(120, B64)
add("private_key", f"私钥 {_pk8}", _pk8[:60])
_eth = r(64, HEX)
add("private_key", f"钱包私钥 0x{_eth}", _eth)
add("private_key", f"my metamask private key is {_eth[::-1]}", _eth[::-1])
_putty = r(64, B64)
add("private_key", f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n{_putty}", _putty)
_pem = r(64, B64)
add("private_key", "-----" + "BEGIN OPENSSH " + f"PRIVATE KEY-----\n{_pem}\n-----END OPENSSH PRIVATE KEY-----", _pem)
_ed = r(43, B64) + "="
add("private_key", f"wireguard PrivateKey = {_ed}", _ed)
_mn = "abandon ability able about above absent absorb abstract absurd abuse access " + r(6, string.ascii_lowercase)
add("private_key", f"助记词：{_mn}", _mn)
_ssb = r(64, HEX)
add("private_key", f"btc wif key {_ssb}", _ssb)

# ---- IDs with valid check digits (14)
_ids = [
    ("身份证号 {}", _cn_id("11010819900307" + "423")),
    ("我的身份证{}，复印件在抽屉", _cn_id("31011519880512" + "201")),
    ("ID number {} for the visa form", _cn_id("44010619951130" + "088")),
    ("身份证：{}", fw(_cn_id("51010719830622" + "571"))),
    ("香港身份证 {}", _hkid("A", "123456")),
    ("HKID {}", _hkid("Y", "874512")),
    ("台湾身分证字号 {}", _twid("A", "12345678")),
    ("NRIC {}", _nric("S", "1234567")),
    ("my FIN is {}", _nric("G", "7654321")),
    ("NI number {}", _nino()),
    ("SSN 5" + "21-{}", "7" + r(1, "123456789") + "-" + r(4, "123456789")),
    ("护照号 E{}", r(8, "0123456789")),
    ("驾驶证号同身份证 {}", _cn_id("33010619700101" + "111")),
    ("儿子身份证{}报名用", _cn_id("11010520150601" + "212")),
]
for tmpl, v in _ids:
    add("id_number", tmpl.format(v), v)

# ---- cards (10)
_c1 = _luhn_fix("6217000" + "12345678901")
_c1s = " ".join([_c1[0:4], _c1[4:8], _c1[8:12], _c1[12:16], _c1[16:]])
_c2 = _luhn_fix("5" + "42418" + "123456789")
_c3 = _luhn_fix("4" + "92180" + "000111222")
_c4 = _luhn_fix("6" + "22848" + "0011223344556")
_c5 = _luhn_fix("3" + "7828" + "224631000")
for text, needle in [
    (f"信用卡 {_luhn_fix('622588' + '012345678')}", _luhn_fix('622588' + '012345678')),
    (f"card: {_c2} exp 09/28 cvv 431", _c2),
    (f"银联卡 {_c1s}", _c1s),
    (f"卡号{_c3}，尾号{_c3[-4:]}", _c3),
    (f"ref{_c4} 退款用这张", _c4),
    (f"amex {_c5[:4]}/{_c5[4:10]}/{_c5[10:]}", f"{_c5[:4]}/{_c5[4:10]}/{_c5[10:]}"),
    (f"招行卡号：{fw(_c2)}", fw(_c2)),
    (f"visa{ZW}{_c3[:8]}{ZW}{_c3[8:]}", _c3[:8] + ZW + _c3[8:]),
    (f"pay with {_c3[:4]}-{_c3[4:8]}-{_c3[8:12]}-{_c3[12:]} cvv 778", f"{_c3[:4]}-{_c3[4:8]}-{_c3[8:12]}-{_c3[12:]}"),
    (f"the card on file is {_c2}", _c2),
]:
    add("card", text, needle)

# ---- bank accounts (8)
_iban1 = _mod97_iban("DE", "37040044" + "0532013000")
_iban2 = _mod97_iban("GB", "NWBK" + "601613" + "31926819")
_acct = "6230" + r(15, "0123456789")
for text, needle in [
    (f"工资卡账号 {_acct}，开户行建设银行北京分行", _acct),
    (f"IBAN {_iban1}", _iban1),
    (f"transfer to {_iban2[:4]} {_iban2[4:8]} {_iban2[8:12]} {_iban2[12:16]} {_iban2[16:]}", _iban2[4:8] + " " + _iban2[8:12]),
    ("routing 0210" + "00021 account " + (a := r(10, "0123456789")), a),
    (f"对公账户：{(b := '1100' + r(16, '0123456789'))}", b),
    (f"sort code 20-00-00 acc {(c := r(8, '0123456789'))}", c),
    (f"收款账号{fw(d := '6222' + r(15, '0123456789'))} 户名王芳", fw(d)),
    (f"支付宝账号 {(e := '138' + r(8, '0123456789'))} 实名李强", e),
]:
    add("bank_account", text, needle)

# ---- phones (12)
for text, needle in [
    (f"我手机号{(p := '139' + r(8, '0123456789'))}有事打", p),
    (f"房东电话：{fw(q := '158' + r(8, '0123456789'))}", fw(q)),
    (f"call me at +86 {(s := '186 ' + r(4, '0123456789') + ' ' + r(4, '0123456789'))}", s),
    (f"联系人张伟{(t := '137' + r(8, '0123456789'))}", t),
    (f"her cell is (415) {(u := '867-' + r(4, '0123456789'))}", "(415) " + u),
    (f"UK mobile 07{(v := r(3, '0123456789') + ' ' + r(6, '0123456789'))}", "07" + v),
    (f"老妈电话 1{ZW}{(w := '35' + r(8, '0123456789'))}", "1" + ZW + w),
    (f"打 {(x := '150-' + r(4, '0123456789') + '-' + r(4, '0123456789'))} 找快递", x),
    (f"座机 010-{(y := r(8, '0123456789'))}", "010-" + y),
    (f"whatsapp +65 {(z := '9' + r(3, '0123456789') + ' ' + r(4, '0123456789'))}", z),
    (f"tel:+44{(aa := '7700' + r(6, '0123456789'))}", aa),
    (f"电话是１３８{fw(bb := r(8, '0123456789'))}", fw(bb)),
]:
    add("phone", text, needle)

# ---- e-mails glued / full-width (10)
for text, needle in [
    ("发到我邮箱wangfang1988@163.com谢谢", "wangfang1988@163.com"),
    ("我的QQ邮箱是" + (m := "27" + r(7, "0123456789") + "@qq.com"), m),
    (f"email：{fw('li.ming@gmail.com')}", fw("li.ming@gmail.com")),
    ("reach her at jenny.huang+work@outlook.com", "jenny.huang+work@outlook.com"),
    ("老板邮箱chen_zong@corp-tech.cn，别抄送", "chen_zong@corp-tech.cn"),
    ("my personal email is zhou·yu@126.com".replace("·", "."), "zhou.yu@126.com"),
    ("联系 sun" + ZW + "lei@foxmail.com", "sun" + ZW + "lei@foxmail.com"),
    ("mail to k.tanaka@docomo.ne.jp about the contract", "k.tanaka@docomo.ne.jp"),
    ("邮箱（私人）：xiaoyu_2008@sina.cn", "xiaoyu_2008@sina.cn"),
    ("His address is bob dot smith at protonmail dot com", "bob dot smith at protonmail dot com"),
]:
    add("email", text, needle)

# ---- accounts / handles (6)
for text, needle in [
    ("我的QQ号 " + (q1 := "8" + r(8, "0123456789")), q1),
    ("微信号：" + (w1 := "wxid_" + r(14, string.ascii_lowercase + string.digits)), w1),
    ("加我微信 lily_" + (w2 := r(6, string.ascii_lowercase + string.digits)), "lily_" + w2),
    ("抖音号 " + (d1 := "dy" + r(9, "0123456789")), d1),
    ("小红书号：" + (x1 := r(10, "0123456789")), x1),
    ("my instagram is @" + (i1 := "mei." + r(6, string.ascii_lowercase)), i1),
]:
    add("account_handle", text, needle)

# ---- addresses (12)
for text, needle in [
    ("我家住在朝阳区望京街道阜通东大街6号院3号楼2单元1102", "3号楼2单元1102"),
    ("快递寄到浦东新区张杨路1500弄12号601室", "张杨路1500弄12号601室"),
    ("地址：深圳市南山区科技园南区粤海街道高新南七道18号", "高新南七道18号"),
    ("I live at 742 Evergreen Terrace, Apt 5B, Springfield", "742 Evergreen Terrace"),
    ("her flat is 221B Baker Street, London NW1 6XE", "NW1 6XE"),
    ("房子在海淀区中关村南大街27号院5栋", "中关村南大街27号院5栋"),
    ("home GPS 39.9087, 116.3975", "39.9087, 116.3975"),
    ("爸妈住 成都市武侯区玉林北路3号附2号", "玉林北路3号附2号"),
    ("收货地址 杭州市西湖区文三路90号东部软件园2号楼305", "文三路90号东部软件园2号楼305"),
    ("meet at my place, 18 Rue des Martyrs, 75009 Paris", "18 Rue des Martyrs"),
    ("老家地址：河南省周口市郸城县吴台镇李楼村", "吴台镇李楼村"),
    ("寄到：广州市天河区体育西路１０３号维多利广场Ａ座２８０１", "体育西路１０３号"),
]:
    add("address", text, needle)

# ---- names with cues (10)
for text, needle in [
    ("我叫刘晓燕，是这个项目的负责人", "刘晓燕"),
    ("my full name is Margaret Okonkwo-Reyes", "Margaret Okonkwo-Reyes"),
    ("同事王建国今天请假", "王建国"),
    ("房东叫孙丽华，人挺好", "孙丽华"),
    ("老婆名字是赵雅琪", "赵雅琪"),
    ("the tenant's name is Dmitri Volkov", "Dmitri Volkov"),
    ("我的真实姓名：欧阳娜娜", "欧阳娜娜"),
    ("儿子叫陈子轩，在实验小学", "陈子轩"),
    ("contact person: Priya Raghunathan", "Priya Raghunathan"),
    ("我女朋友叫林婉清", "林婉清"),
]:
    add("name", text, needle)

# ---- home paths (8)
for text, needle in [
    ("日志在 /home/zhangsan/projects/app/log", "zhangsan"),
    ("C:\\Users\\Li Wei\\Documents\\tax.xlsx 打不开", "Li Wei"),
    ("open /mnt/c/Users/huangjing/Desktop/report.docx", "huangjing"),
    ("\\\\wsl$\\Ubuntu\\home\\xuming\\.bashrc", "xuming"),
    ("/Users/kevin.ng/Library/Keychains/login.keychain-db", "kevin.ng"),
    ("~ is /home/yuki_tanabe on the laptop", "yuki_tanabe"),
    ("配置在C:\\Users\\王磊\\AppData\\Roaming\\app", "王磊"),
    ("scp file to /home/mchen/", "mchen"),
]:
    add("home_path", text, needle)

# ---- schedules of a person (8)
for text, needle in [
    ("她每周二晚上一个人在家，老公出差", "每周二晚上一个人在家"),
    ("my neighbour leaves for work at 6:40 every weekday and the house is empty until 7pm", "house is empty until 7pm"),
    ("孩子每天下午4点半自己从学校走回家", "每天下午4点半自己从学校走回家"),
    ("Grandma is alone every Sunday afternoon, door usually unlocked", "door usually unlocked"),
    ("老板每周五下午去打高尔夫，不在公司", "每周五下午去打高尔夫"),
    ("we're away 12-26 Dec, the key is under the mat", "key is under the mat"),
    ("妈妈每周三早上7点在小区门口晨跑", "每周三早上7点在小区门口晨跑"),
    ("she picks up her daughter at 3:15 at the school gate every day", "3:15 at the school gate"),
]:
    add("schedule", text, needle)

# ---- health (12)
for text, needle in [
    ("我爸确诊了二型糖尿病，每天打胰岛素", "确诊了二型糖尿病"),
    ("同事小李有抑郁症，在吃舍曲林", "抑郁症，在吃舍曲林"),
    ("my sister was diagnosed with bipolar II last spring", "diagnosed with bipolar II"),
    ("I'm HIV positive, please keep it between us", "HIV positive"),
    ("老婆怀孕8周了，还没告诉公司", "怀孕8周了"),
    ("他有癫痫，开车要注意", "他有癫痫"),
    ("Tom is on methadone treatment since March", "on methadone treatment"),
    ("我有焦虑症，面试前要吃药", "我有焦虑症"),
    ("her MRI showed a benign tumour in the left breast", "benign tumour in the left breast"),
    ("奶奶阿尔茨海默病中期，认不出人了", "阿尔茨海默病中期"),
    ("BRCA1 基因检测阳性", "BRCA1 基因检测阳性"),
    ("I've been in rehab twice for alcohol", "in rehab twice for alcohol"),
]:
    add("health", text, needle)

# ---- legal (8)
for text, needle in [
    ("他去年因为醉驾被判拘役两个月", "醉驾被判拘役两个月"),
    ("my brother has a pending assault charge, hearing on the 14th", "pending assault charge"),
    ("我正在和前夫打离婚官司，争孩子抚养权", "打离婚官司"),
    ("she was arrested for shoplifting in 2019", "arrested for shoplifting"),
    ("公司被前员工起诉拖欠工资，案号(2026)京0105民初12345号", "(2026)京0105民初12345号"),
    ("he is on probation until next June", "on probation until next June"),
    ("我表哥有吸毒前科", "有吸毒前科"),
    ("there's a restraining order against my ex", "restraining order against my ex"),
]:
    add("legal", text, needle)

# ---- financial trouble (8)
for text, needle in [
    ("我欠了网贷二十多万，每个月还不上", "欠了网贷二十多万"),
    ("he filed for bankruptcy in 2024", "filed for bankruptcy"),
    ("老王的征信有逾期记录，房贷批不下来", "征信有逾期记录"),
    ("my credit score is 512 after the default", "credit score is 512"),
    ("我年薪税前48万，不要告诉别人", "年薪税前48万"),
    ("she owes the casino $40k", "owes the casino $40k"),
    ("被列为失信被执行人了", "失信被执行人"),
    ("my salary is 14,500 a month net", "salary is 14,500 a month"),
]:
    add("financial", text, needle)

# ---- minors (6)
for text, needle in [
    ("女儿今年9岁，在海淀实验小学三年级二班", "三年级二班"),
    ("my son Leo is 7 and goes to Maple Grove Elementary", "Maple Grove Elementary"),
    ("孩子有多动症，学校老师不知道", "孩子有多动症"),
    ("the 13-year-old next door is being bullied at school", "13-year-old next door is being bullied"),
    ("儿子生日2016年3月8日，血型O型", "2016年3月8日"),
    ("侄女12岁，在网上认识了一个成年人", "侄女12岁，在网上认识了一个成年人"),
]:
    add("minor", text, needle)

# ---- protected characteristics (8)
for text, needle in [
    ("我是同性恋，家里还不知道", "我是同性恋"),
    ("he's a practising Muslim and prays at 1pm", "practising Muslim"),
    ("她是维吾尔族，信伊斯兰教", "维吾尔族，信伊斯兰教"),
    ("my manager is gay but not out at work", "my manager is gay"),
    ("我是基督徒，每周日去教会", "我是基督徒"),
    ("she voted for the opposition and is a party member", "party member"),
    ("同事是跨性别者，正在做激素治疗", "跨性别者，正在做激素治疗"),
    ("I'm an undocumented immigrant, visa expired 2023", "undocumented immigrant"),
]:
    add("protected", text, needle)

PRIVATE = P

# ======================= benign (100)
B = []


def ben(kind, text):
    B.append((kind, text))


for t in ["banner@3x.png 放到 assets 目录", "icon@2x.webp 比 png 小一半", "npm i @types/node@20.11.5",
          "pip install requests==2.31.0", "git clone git@github.com:psf/requests.git", "docker pull nginx@sha256:" + "0" * 8,
          "scope 包 @babel/core@7.24.0 升级", "user@example.com 是文档占位邮箱", "test@localhost 收不到邮件",
          "logo@1.5x.jpg 模糊"]:
    ben("at_sign", t)
for t in ["端口范围 20000-20099 给 RTP", "下个月 20 号发布", "3 号机柜的交换机坏了", "build 20261130.4 passed",
          "订单号 1234567890123 已发货", "PR #13892 merged", "IPv4 10.0.0.0/8 是内网", "ulimit -n 1048576",
          "版本号 3.12.7，发布于 2024-10-01", "uuid 123e4567-e89b-12d3-a456-426614174000 是示例"]:
    ben("numbers", t)
for t in ["密码学课程第三章讲 RSA", "重置密码的接口返回 500", "password reset flow sends a link, not the password",
          "用 bcrypt 存密码哈希，cost 12", "the PIN pad driver crashed on boot", "忘记密码页面的样式要改",
          "passwords must be at least 12 characters", "口令强度检查用 zxcvbn", "token bucket 限流 100 req/s",
          "JWT 过期时间设为 15 分钟"]:
    ben("secret_words", t)
for t in ["key=value pairs are split on the first '='", "the primary key is (user_id, created_at)",
          "密钥轮换周期改成 90 天", "SECRET_KEY 从环境变量读取，不要写死", "api key 在 vault 里，别问我要",
          "export PATH=$HOME/.local/bin:$PATH", "git commit -m 'fix token refresh race'",
          "sha256sum 输出 64 位十六进制", "base64 -d < blob.txt > out.bin", "set -euo pipefail at the top"]:
    ben("config_words", t)
for t in ["mysql -u root -p 会提示输入密码", "psql -h localhost -U postgres", "redis-cli -a $REDIS_PASS ping",
          "docker login --password-stdin < token.txt", "ssh -i ~/.ssh/id_ed25519 deploy@host", "curl -u user:$PASS url",
          "requirepass 配置项在 redis.conf", "PGPASSWORD 环境变量优先级比 .pgpass 低", "kubectl get secret -o yaml",
          "vault kv get secret/app"]:
    ben("command_lines", t)
for t in ["/home/user/projects 是默认路径", "C:\\Program Files\\Git\\bin", "~/.config/nvim/init.lua",
          "/usr/local/lib/python3.12", "/mnt/data/backups 每晚同步", "/Users/Shared 目录权限", "%APPDATA%\\Code\\User",
          "/var/log/nginx/access.log 太大", "$HOME/.cache 清一下", "/etc/ssh/sshd_config 改端口"]:
    ben("paths", t)
for t in ["张三李四是文档里的示例名字", "王者荣耀更新了", "The Road Not Taken 是首诗", "周杰伦新歌不错",
          "中山路站换乘 2 号线", "北京市海淀区天气晴", "Alice and Bob in the protocol diagram", "人民路小学的新闻",
          "马克思主义基本原理考试", "长安街 10 公里跑步活动"]:
    ben("names_places", t)
for t in ["每周二晚上 8 点组会", "cron: 0 3 * * 1 runs the backup", "每天下午 4 点半站会", "sprint review every Friday 3pm",
          "周末机房断电检修", "standup at 9:30 daily", "每月 1 号出账单", "deploy window is Tue/Thu 22:00-23:00",
          "服务每 5 分钟健康检查", "the cache expires every Sunday at midnight"]:
    ben("schedules", t)
for t in ["糖尿病预测模型 AUC 0.91", "health check endpoint /healthz", "数据集里有焦虑症量表 GAD-7 的列名",
          "the bipolar transistor datasheet", "法律条文检索接口上线", "court case API returns 404", "破产 的英文是 bankruptcy",
          "religion 字段在表里要删掉", "孩子们的画展海报", "年薪计算器前端组件"]:
    ben("topics", t)
for t in ["md5 d41d8cd98f00b204e9800998ecf8427e 是空串", "git sha 4b825dc642cb6eb9a060e54bf8d69288fbee4904 is the empty tree",
          "ISBN 978-7-111-54742-6", "BV1xx411c7mD 这个视频", "示例卡号 4111 1111 1111 1111 只用于测试", "lat 0.0, lon 0.0 is null island",
          "AKIDEXAMPLE 是 AWS 文档里的占位", "127.0.0.1:8080 起服务", "SELECT * FROM users WHERE id = 42", "颜色 #ff6600 太亮"]:
    ben("hashes_ids", t)
BENIGN = B
