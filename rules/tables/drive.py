"""Drive-charging tables (Seed B: Drive Charging)."""

# Base charging time for drive cores and lithium-fusion batteries.
BASE_HOURS = 150

# Reactor charging: (hours, failure chance %) as printed, plus (16 h, 100 %) [A36];
# ascending by hours. Linear between anchors; at or above 150 h: 0 %.
ANCHORS = ((16, 100), (24, 50), (75, 27), (100, 16), (150, 0))

# "any attempt to charge the drive in less than 16 hours inevitably results in severe damage"
AUTOMATIC_DAMAGE_BELOW_HOURS = 16

# Jump-sail charging takes 151 to more than 200 hours by star class (GM-data [A10]);
# sail deployment takes up to 90 minutes after a few minutes of alignment.
SAIL_HOURS_MIN = 151
SAIL_HOURS_TYPICAL_MAX = 200
SAIL_DEPLOY_MINUTES = 90

SYSTEM_FIELD = {"kf_drive": "drive_charged", "lf_battery": "lf_battery_charged"}
SYSTEM_TEXT = {"kf_drive": "K-F drive core", "lf_battery": "lithium-fusion battery"}
