"""Word lists of the privacy detector (:mod:`memory_manager.privacy`): health facts named by a
medicine, a marker or a device, and the cues of a telephone number, in English and Chinese.

Kept apart from the rule table so that a list can grow without touching a rule. Standard
library only (the per-turn path may import the detector's tables). Every list is by class, not
by the words an attacker tried: a class is filled from its source, so that tomorrow's phrasing
of the same kind is found too.

Sources: WHO Model List of Essential Medicines (23rd list, 2023) and the most prescribed
medicines in the US (ClinCalc DrugStats top 300) and China (国家基本药物目录 2018) for
medicines, generic and brand names; the HIV, hepatitis, diabetes and cardiology markers of
routine lab panels (CDC, NICE, 中华医学会 guidelines); implanted and worn medical devices (FDA
device classes). Ambiguous words (PrEP = meal prep, Plan B = a backup plan, pacemaker = a
cluster manager, "the pill", a stent in a network) are listed apart: they count only in a
frame that says a person takes, is on, or has them (:data:`HEALTH_FRAMED_EN`).
"""
from __future__ import annotations

#: Medicines by class (lower case; generic and brand names). Words that name something else in a
#: technical note are not here (lithium, ecstasy, speed, ice, crack, valium is kept: no other sense).
HEALTH_MEDICINES_EN = (
    # HIV treatment and prevention (antiretrovirals), hepatitis antivirals
    "antiretrovirals?", "antiretroviral therapy", "truvada", "descovy", "biktarvy", "genvoya", "stribild",
    "triumeq", "dovato", "juluca", "cabenuva", "apretude", "atripla", "complera", "odefsey", "symtuza",
    "prezista", "prezcobix", "isentress", "tivicay", "emtricitabine", "tenofovir", "dolutegravir",
    "bictegravir", "raltegravir", "efavirenz", "lamivudine", "zidovudine", "abacavir", "darunavir",
    "rilpivirine", "cabotegravir", "lenacapavir", "sunlenca", "harvoni", "epclusa", "mavyret", "sovaldi",
    "sofosbuvir", "ledipasvir", "velpatasvir", "glecaprevir", "entecavir", "baraclude", "vemlidy",
    "pre-exposure prophylaxis", "post-exposure prophylaxis",
    # psychiatric medicines
    "wellbutrin", "zyban", "bupropion", "paxil", "paroxetine", "celexa", "effexor", "cymbalta", "pristiq",
    "desvenlafaxine", "trintellix", "vortioxetine", "remeron", "mirtazapine", "trazodone", "amitriptyline",
    "nortriptyline", "elavil", "seroquel", "abilify", "risperdal", "risperidone", "zyprexa", "olanzapine",
    "latuda", "lurasidone", "vraylar", "cariprazine", "rexulti", "clozapine", "clozaril", "haloperidol",
    "haldol", "depakote", "valproate", "lamictal", "tegretol", "carbamazepine", "klonopin", "ativan",
    "valium", "buspirone", "buspar", "hydroxyzine", "vyvanse", "lisdexamfetamine", "concerta",
    "methylphenidate", "focalin", "strattera", "atomoxetine", "intuniv", "guanfacine", "ambien", "lunesta",
    "eszopiclone", "belsomra", "spravato", "esketamine",
    # addiction treatment
    "antabuse", "disulfiram", "acamprosate", "campral", "vivitrol", "naloxone", "narcan", "subutex",
    "sublocade", "chantix", "champix", "varenicline", "nicotine patch(?:es)?",
    # contraception, reproduction, hormones, sexual health
    "morning-after pill", "levonorgestrel", "ulipristal", "yasmin", "mirena", "kyleena",
    "nexplanon", "depo-provera", "nuvaring", "birth control pills?", "contraceptive pills?",
    "clomid", "clomiphene", "letrozole", "estradiol", "progesterone", "testosterone (?:shots?|injections?|gel)",
    "spironolactone", "finasteride", "propecia", "viagra", "sildenafil", "cialis", "tadalafil",
    "mifepristone", "misoprostol",
    # diabetes, cardiology, weight
    "mounjaro", "tirzepatide", "zepbound", "trulicity", "dulaglutide", "victoza", "saxenda", "liraglutide",
    "jardiance", "empagliflozin", "farxiga", "dapagliflozin", "januvia", "sitagliptin", "glipizide",
    "glimepiride", "lantus", "humalog", "novolog", "tresiba", "levemir", "basaglar", "entresto", "xarelto",
    "rivaroxaban", "pradaxa", "dabigatran", "coumadin", "digoxin", "amiodarone", "nitroglycerin",
    "carvedilol", "propranolol", "atenolol", "bisoprolol", "hydrochlorothiazide", "furosemide", "lasix",
    "lipitor", "crestor", "zocor",
    # immunology, oncology, transplant, other chronic illness
    "humira", "adalimumab", "enbrel", "etanercept", "remicade", "infliximab", "stelara", "skyrizi",
    "dupixent", "rinvoq", "xeljanz", "otezla", "keytruda", "opdivo", "herceptin", "tagrisso", "ibrance",
    "letrozole", "anastrozole", "arimidex", "lupron", "prograf", "cellcept", "mycophenolate",
    "hydroxychloroquine", "plaquenil", "ocrevus", "tecfidera", "copaxone", "levodopa", "sinemet",
    "donepezil", "aricept", "memantine", "namenda", "keppra", "levetiracetam", "topiramate", "topamax",
    "sumatriptan", "imitrex", "aimovig", "emgality", "synthroid", "allopurinol", "colchicine",
    "accutane", "isotretinoin", "oxycodone", "oxycontin", "hydrocodone", "vicodin", "percocet", "tramadol",
    "fentanyl patch(?:es)?", "morphine", "epipen", "albuterol inhaler", "ventolin", "symbicort", "advair",
    "spiriva",
)

#: Markers and results of lab panels that are a person's health fact ("my CD4 count", "viral load").
HEALTH_MARKERS_EN = (
    "cd4(?: count| cells?| level)?", "t-cell count", "viral load", "undetectable viral load",
    "hiv (?:test|status|positive|negative)", "psa (?:level|test|score)", "inr (?:level|test|reading)",
    "egfr (?:level|result)", "creatinine(?: level)?", "ferritin(?: level)?", "tsh (?:level|test)",
    "blood sugar", "glucose (?:level|reading)s?", "fasting glucose", "white (?:blood )?cell count",
    "platelet count", "hemoglobin|haemoglobin", "liver enzymes", "alt levels?", "bilirubin",
    "tumou?r markers?", "ca-?125", "afp level", "ketones", "sperm analysis", "semen analysis",
    "amh level", "bone density", "dexa scan", "colonoscopy", "mammogram", "pap test", "smear test",
    "ecg|ekg", "echocardiogram", "mri (?:results?|scan of my)", "ct scan results?",
)

#: Conditions by a short name that the full-name lists miss (hep C, HCV, T1D...).
HEALTH_CONDITIONS_EN = (
    "hep [abc]", "hepatitis [abc]", "hcv", "hbv", "t1d", "t2d", "type [12] diabetes", "copd", "gerd",
    "endometriosis", "fibromyalgia", "gout", "psoriasis", "eczema", "celiac disease", "coeliac disease",
    "sickle cell", "cystic fibrosis", "leukemia", "leukaemia", "lymphoma", "melanoma", "hiv\\+",
    "sleep apnea", "sleep apnoea", "tinnitus", "concussion", "long covid",
    "tuberculosis", "glaucoma", "cataracts?", "dyslexi[ac]", "tourette'?s",
)

#: Implanted and worn devices that say a person's condition.
HEALTH_DEVICES_EN = (
    "insulin pump", "cgm sensor", "continuous glucose monitor", "glucose monitor", "cpap(?: machine)?",
    "bipap", "implanted defibrillator", "icd implant", "cochlear implants?", "ostomy bag", "colostomy bag",
    "catheter", "feeding tube", "hearing implant", "heart monitor", "holter monitor", "oxygen tank",
    "home oxygen", "nebulizer", "mobility scooter", "prosthetic (?:leg|arm|limb)",
)

#: Words with another common sense, a health fact only in a frame about a person (:data:`HEALTH_FRAMED_EN`).
HEALTH_AMBIGUOUS_EN = (
    "prep", "plan b", "pacemaker", "the pill", "the patch", "stents?", "inhaler", "insulin", "arvs?",
    "meds",
    "a1c", "cd4", "bp meds", "blood thinners?", "beta blockers?", "ssris?", "snris?", "benzos?",
    "stimulants", "antipsychotics?", "mood stabili[sz]ers?", "steroids", "hrt", "dialysis", "chemo",
)

#: The frame of :data:`HEALTH_AMBIGUOUS_EN`: someone takes, is on, started, stopped or has it.
HEALTH_FRAMED_EN = (
    r"(?:i|i'm|im|i've|ive|we|he|she|they|he's|she's|they're|you're|my (?:wife|husband|partner|son|daughter|"
    r"mom|mum|dad|mother|father|sister|brother|kid|child|friend|grandma|grandpa|doctor)|(?:she|he|they) (?:is|was)"
    r"|i (?:am|was))"
    r" (?:(?:still|now|just|also|already|currently|been|recently|finally) )*"
    r"(?:take|takes|took|taking|on|started|starting|start|stopped|stopping|quit|came off|coming off|need|needs|needed|"
    r"got|get|have|has|had|wear|wears|use|uses|used|was prescribed|got prescribed|am prescribed|"
    r"was put on|got put on|been put on|got fitted with|was fitted with|had fitted|going on|went on|been on|"
    r"was on|is on|am on|are on|refill(?:ed)?|ran out of|missed (?:my|a|her|his)|"
    r"got an?|have an?|has an?|had an?)"
    r" (?:(?:a|an|the|my|her|his|their|some|daily|new|emergency|another) )*"
)

#: Chinese medicines, markers, conditions and devices (simplified; traditional text is folded first).
HEALTH_TERMS_ZH = (
    # HIV, hepatitis
    "抗逆转录病毒", "抗病毒治疗", "暴露前预防", "暴露后预防", "阻断药", "舒发泰", "特鲁瓦达", "必妥维", "绥美凯",
    "替诺福韦", "恩曲他滨", "拉米夫定", "多替拉韦", "依非韦伦", "恩替卡韦", "韦立得", "丙肝", "甲肝", "戊肝",
    "大三阳", "小三阳", "乙肝病毒", "索磷布韦", "丙通沙", "艾滋病毒", "HIV阳性",
    # psychiatric, addiction
    "安非他酮", "帕罗西汀", "艾司西酞普兰", "西酞普兰", "文拉法辛", "度洛西汀", "米氮平", "曲唑酮", "阿米替林",
    "喹硫平", "奥氮平", "利培酮", "阿立哌唑", "氯氮平", "氟哌啶醇", "碳酸锂", "丙戊酸", "拉莫三嗪", "卡马西平",
    "阿普唑仑", "艾司唑仑", "劳拉西泮", "氯硝西泮", "地西泮", "唑吡坦", "右佐匹克隆", "哌甲酯", "专注达",
    "托莫西汀", "择思达", "利他林", "戒酒硫", "双硫仑", "纳洛酮", "伐尼克兰", "尼古丁贴",
    # contraception, reproduction, sexual health
    "毓婷", "左炔诺孕酮", "优思明", "妈富隆", "避孕针", "避孕环", "皮埋", "克罗米芬", "来曲唑", "促排", "黄体酮",
    "雌二醇", "伟哥", "西地那非", "他达拉非", "米非司酮", "米索前列醇",
    # diabetes, cardiology
    "司美格鲁肽", "替尔泊肽", "利拉鲁肽", "度拉糖肽", "达格列净", "恩格列净", "西格列汀", "格列美脲", "格列吡嗪",
    "甘精胰岛素", "门冬胰岛素", "诺和灵", "诺和锐", "华法林", "利伐沙班", "达比加群", "氯吡格雷", "阿司匹林肠溶",
    "硝酸甘油", "速效救心丸", "胺碘酮", "地高辛", "呋塞米", "螺内酯", "美托洛尔", "比索洛尔", "氨氯地平",
    # immunology, oncology, other chronic illness
    "阿达木单抗", "修美乐", "英夫利西", "帕博利珠", "可瑞达", "纳武利尤", "欧狄沃", "赫赛汀", "奥希替尼", "泰瑞沙",
    "他莫昔芬", "羟氯喹", "吗替麦考酚酯", "左乙拉西坦", "丙戊酸钠", "托吡酯", "多奈哌齐", "美金刚", "左旋多巴",
    "美多芭", "别嘌醇", "非布司他", "秋水仙碱", "异维A酸", "泰诺林", "曲马多", "羟考酮", "吗啡", "芬太尼贴",
    "沙丁胺醇", "信必可", "舒利迭",
    # markers
    "CD4计数", "CD4值", "CD4细胞", "病毒载量", "肌酐", "转氨酶", "甲胎蛋白", "癌胚抗原", "肿瘤标志物", "糖耐量",
    "空腹血糖", "餐后血糖", "尿酸高", "尿蛋白", "血小板低", "白细胞低", "骨密度", "肠镜", "胃镜", "钼靶", "心电图",
    "核磁共振结果", "CT结果",
    # conditions by short name, devices
    "丙型肝炎", "乙型肝炎", "一型糖尿病", "二型糖尿病", "慢阻肺", "红斑狼疮", "银屑病", "牛皮癣", "湿疹", "白血病",
    "淋巴瘤", "肺结核", "青光眼", "白内障", "睡眠呼吸暂停", "耳鸣", "眩晕症", "脑震荡", "阿斯伯格",
    "起搏器", "心脏起搏", "除颤器", "胰岛素泵", "动态血糖", "呼吸机", "制氧机", "造口袋", "导尿管", "胃管",
)

#: Words that say the number after them is someone's telephone number (lower case; a family or
#: household word too: "mom 138…"). Between the cue and the number a connector may stand
#: (:data:`PHONE_CONNECTORS`), or nothing (``tel+86…``, ``mom_138…``, ``电话415…``).
PHONE_CUES_EN = (
    "phone", "phones", "phone number", "phone no", "phone num", "ph", "tel", "tele", "telephone", "mobile",
    "mob", "mobile number", "cell", "cellphone", "cell phone", "cell number", "landline", "home phone",
    "work phone", "direct line", "direct dial", "extension", "whatsapp", "signal", "viber", "line id",
    "sms", "text", "text me", "txt me", "call", "call me", "ring", "ring me", "give me a ring", "dial",
    "reach me", "reach her", "reach him", "reach them", "reach us", "contact me", "contact her",
    "contact him", "contact number", "contact no", "emergency contact", "message me", "ping me",
    "my number", "her number", "his number", "their number", "our number", "number to call",
    "wife", "husband", "partner", "mom", "mum", "mother", "dad", "father", "sister", "brother", "son",
    "daughter", "girlfriend", "boyfriend", "grandma", "grandpa", "aunt", "uncle", "nanny", "babysitter",
    "landlord", "landlady", "neighbor", "neighbour", "doctor", "dentist", "roommate", "flatmate", "cousin",
)
PHONE_CUES_ZH = (
    "电话", "电话号码", "手机", "手机号", "手机号码", "号码", "联系电话", "联系方式", "联系", "联络", "座机",
    "固话", "分机", "微信同号", "致电", "打给", "打电话给", "拨打", "来电", "电联", "短信", "发短信到", "发到",
    "紧急联系人", "老婆", "老公", "妈妈", "我妈", "爸爸", "我爸", "姐姐", "妹妹", "哥哥", "弟弟", "儿子", "女儿",
    "房东", "保姆", "阿姨", "邻居", "室友",
)
#: What may stand between a telephone cue and its number.
PHONE_CONNECTORS = ("is", "at", "on", "to", "via", "number", "no", "no.", "num", "#", ":", "：", "=", "-",
                    "是", "为", "：", "号", "号码", "(", "（")
