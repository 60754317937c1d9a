package dev.ringzero;

import java.sql.DatabaseMetaData;

import javax.sql.DataSource;

import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * The database RingZero runs on, for the few statements written twice: PostgreSQL (production)
 * can return what an update changed and write two tables in one statement; H2 (the zero-setup
 * default) reads an update's rows as a "final table" and writes one table a statement. The hot
 * path takes PostgreSQL's shorter form; H2 gets the same result in more statements.
 */
public enum SqlDialect {
    POSTGRESQL, H2;

    public static SqlDialect of(DataSource dataSource) {
        String product;
        try {
            product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
        } catch (MetaDataAccessException e) {
            throw new IllegalStateException("cannot tell which database RingZero runs on", e);
        }
        return switch (product) {
            case "PostgreSQL" -> POSTGRESQL;
            case "H2" -> H2;
            default -> throw new IllegalStateException("RingZero runs on PostgreSQL or H2, not " + product);
        };
    }
}
