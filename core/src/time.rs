//! Time: the clock, civil dates and RFC 3339 — one calendar for every module.
//!
//! All times are Unix seconds (or nanoseconds where a file's modification time needs
//! them) in UTC; dates are the proleptic Gregorian calendar (Howard Hinnant's
//! algorithms).

use std::time::{SystemTime, UNIX_EPOCH};

/// The current time in Unix seconds (0 if the clock is before 1970).
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// The current time in Unix nanoseconds (0 if the clock is before 1970).
pub fn unix_now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// A file's modification time in Unix nanoseconds: negative before 1970, 0 when the
/// system does not say.
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    let Ok(time) = meta.modified() else { return 0 };
    let nanos = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i128::try_from(after.as_nanos()).unwrap_or(i128::MAX),
        Err(before) => -i128::try_from(before.duration().as_nanos()).unwrap_or(i128::MAX),
    };
    i64::try_from(nanos).unwrap_or(if nanos < 0 { i64::MIN } else { i64::MAX })
}

/// A file's modification time in whole Unix seconds (rounded down), as [`mtime_ns`].
pub fn mtime_secs(meta: &std::fs::Metadata) -> i64 {
    mtime_ns(meta).div_euclid(1_000_000_000)
}

/// Days from 1970-01-01 to a date.
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date (year, month, day) `days` after 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// How many days `month` (1–12) of `year` has.
pub fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Unix seconds as RFC 3339 in UTC, to the second (`2026-01-10T14:32:00Z`).
pub fn format_rfc3339(secs: i64) -> String {
    format!("{}Z", date_time(secs))
}

/// Unix milliseconds as RFC 3339 in UTC, to the millisecond (`2026-01-10T14:32:00.250Z`),
/// as JavaScript's `Date#toISOString` writes it.
pub fn format_rfc3339_millis(millis: i64) -> String {
    let secs = millis.div_euclid(1000);
    format!("{}.{:03}Z", date_time(secs), millis.rem_euclid(1000))
}

/// `2026-01-10T14:32:00` for Unix seconds `secs`, in UTC.
fn date_time(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `YYYY-MM-DD` as Unix seconds at 00:00 UTC; an error says why `date` is not one
/// (a wrong shape, or a day the month does not have: `2026-02-31`).
pub fn parse_date(date: &str) -> std::result::Result<i64, String> {
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !digits(0..4) {
        return Err(format!("{date:?} is not a date as YYYY-MM-DD"));
    }
    if !digits(5..7) || !digits(8..10) {
        return Err(format!("{date:?} is not a date as YYYY-MM-DD"));
    }
    let num = |s: &str| s.parse::<i64>().unwrap_or(0);
    let (y, m, d) = (num(&date[..4]), num(&date[5..7]), num(&date[8..10]));
    if !(1..=12).contains(&m) {
        return Err(format!("{date:?} is not a date: there is no month {m}"));
    }
    let days = days_in_month(y, m);
    if !(1..=days).contains(&d) {
        return Err(format!(
            "{date:?} is not a date: {} {y} has {days} days",
            MONTHS[(m - 1) as usize]
        ));
    }
    Ok(days_from_civil(y, m, d) * 86_400)
}

/// An RFC 3339 timestamp as Unix seconds: `2025-10-08T02:43:40.849Z`, with `T`, `t` or
/// a space between date and time, an optional fraction, `Z`, `±HH:MM`, `±HHMM` or no
/// zone (UTC). None for anything else, including days a month does not have.
pub fn parse_timestamp(text: &str) -> Option<i64> {
    let date = parse_date(text.get(..10)?).ok()?;
    let b = &text.as_bytes()[10..];
    let two = |at: usize| -> Option<i64> {
        match b.get(at..at + 2)? {
            [x @ b'0'..=b'9', y @ b'0'..=b'9'] => {
                Some(i64::from(x - b'0') * 10 + i64::from(y - b'0'))
            }
            _ => None,
        }
    };
    if !matches!(b.first(), Some(b'T' | b't' | b' '))
        || b.get(3) != Some(&b':')
        || b.get(6) != Some(&b':')
    {
        return None;
    }
    let (hour, minute, second) = (two(1)?, two(4)?, two(7)?);
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &b[9..];
    if let Some(fraction) = rest.strip_prefix(b".") {
        let digits = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        rest = &fraction[digits..];
    }
    let offset = match rest {
        [] | [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] | [sign @ (b'+' | b'-'), h1, h2, m1, m2] => {
            let digit = |d: u8| d.is_ascii_digit().then(|| i64::from(d - b'0'));
            let (h, m) = (
                digit(*h1)? * 10 + digit(*h2)?,
                digit(*m1)? * 10 + digit(*m2)?,
            );
            if h > 23 || m > 59 {
                return None;
            }
            if *sign == b'+' {
                h * 3600 + m * 60
            } else {
                -(h * 3600 + m * 60)
            }
        }
        _ => return None,
    };
    Some(date + hour * 3600 + minute * 60 + second - offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_days_round_trip() {
        for days in [-800_000, -1, 0, 1, 59, 60, 11_016, 20_454, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
    }

    #[test]
    fn formats_and_parses_the_same_instant() {
        assert_eq!(format_rfc3339(1_767_225_600), "2026-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(-1), "1969-12-31T23:59:59Z");
        assert_eq!(format_rfc3339(951_782_400 + 3661), "2000-02-29T01:01:01Z");
        assert_eq!(
            format_rfc3339_millis(1_767_225_600_250),
            "2026-01-01T00:00:00.250Z"
        );
        assert_eq!(format_rfc3339_millis(-1), "1969-12-31T23:59:59.999Z");
        for secs in [0, 951_782_400, 1_767_225_600, 1_767_312_245] {
            assert_eq!(parse_timestamp(&format_rfc3339(secs)), Some(secs));
        }
    }

    #[test]
    fn timestamps_are_rfc_3339_in_unix_seconds() {
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_timestamp("2025-10-08T02:43:40.849Z"),
            Some(1_759_891_420)
        );
        assert_eq!(parse_timestamp("2025-10-08T02:43:40Z"), Some(1_759_891_420));
        assert_eq!(parse_timestamp("2025-10-08 02:43:40"), Some(1_759_891_420));
        assert_eq!(
            parse_timestamp("2025-10-08T04:43:40+02:00"),
            Some(1_759_891_420)
        );
        assert_eq!(
            parse_timestamp("2025-10-07T21:43:40.5-0500"),
            Some(1_759_891_420)
        );
        assert_eq!(parse_timestamp("2024-02-29T00:00:00Z"), Some(1_709_164_800));
        assert_eq!(parse_timestamp("1969-12-31T23:59:59Z"), Some(-1));
        assert_eq!(parse_timestamp("2000-03-01T00:00:00Z"), Some(951_868_800));
        assert_eq!(parse_timestamp("2026-01-01T00:00:00Z"), Some(1_767_225_600));
        assert_eq!(
            parse_timestamp("2026-01-01t01:00:00.5+01:00"),
            Some(1_767_225_600)
        );
        assert_eq!(
            parse_timestamp("2026-01-01 01:00:00+0100"),
            Some(1_767_225_600)
        );
        assert_eq!(
            parse_timestamp("2025-12-31T23:00:00-01:00"),
            Some(1_767_225_600)
        );
        for bad in [
            "",
            "2025-10-08",
            "2025-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2025-10-08T02:43:40Zjunk",
            "２０２５-10-08T02:43:40Z",
            "1759891420",
            " 2026-01-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T00:00:00.Z",
            "2026-01-01X00:00:00Z",
            "2026-01-01T00:00:00+1:00",
            "2026-01-01T00:00:00Q",
            "2026-01-01T0:00:00Z",
            "yesterday",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn dates_say_what_is_wrong() {
        assert_eq!(parse_date("2024-02-29"), Ok(1_709_164_800));
        assert!(
            parse_date("2026-02-29")
                .unwrap_err()
                .contains("February 2026 has 28 days")
        );
        assert!(
            parse_date("2026-13-01")
                .unwrap_err()
                .contains("no month 13")
        );
        assert!(parse_date("26-01-01").unwrap_err().contains("YYYY-MM-DD"));
    }
}
